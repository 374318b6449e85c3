/**
 * The client's entrypoint tables held against the official interfaces (docs/contracts.md
 * "Official interfaces"): every entrypoint and view the client names exists in its contract's
 * real ABI with the same argument and return types, and every event it reads has the real
 * event's key and data types. The lists come from the client's own tables (shared/staking.ts,
 * shared/erc20.ts, shared/vesu.ts), so a new call is covered without editing this test.
 *
 * The Vesu tables (`VESU_POOL_SIGNATURE`, `VESU_FACTORY_SIGNATURE`, `VTOKEN_SIGNATURE`,
 * `VESU_ORACLE_SIGNATURE`) are looked up by name: a table that does not exist fails here.
 */
import { describe, expect, it } from 'vitest';
import {
  officialAbi,
  OFFICIAL_CONTRACTS,
  type OfficialContract,
} from '../../test/helpers/official-abi.js';
import type { EntrypointSignature, EventSignature } from '../entrypoints.js';
import {
  ERC20_ENTRYPOINT,
  ERC20_EVENT_NAME,
  ERC20_EVENT_SIGNATURE,
  ERC20_SIGNATURE,
} from '../erc20.js';
import {
  POOL_ENTRYPOINT,
  POOL_EVENT_NAME,
  POOL_EVENT_SIGNATURE,
  POOL_SIGNATURE,
  STAKING_ENTRYPOINT,
  STAKING_SIGNATURE,
} from '../staking.js';
import * as vesu from '../vesu.js';
import { PRAGMA_ENTRYPOINT, PRAGMA_SIGNATURE } from '../pragma.js';

interface Table {
  name: string;
  contract: OfficialContract;
  entrypoints: Readonly<Record<string, string>>;
  signatures: Readonly<Record<string, EntrypointSignature>> | undefined;
}

const vesuTable = (name: string, entrypoints: string, contract: OfficialContract): Table => ({
  name,
  contract,
  entrypoints: (vesu as Record<string, unknown>)[entrypoints] as Record<string, string>,
  signatures: (vesu as Record<string, unknown>)[name] as Table['signatures'],
});

export const TABLES: Table[] = [
  {
    name: 'POOL_SIGNATURE',
    contract: 'staking-pool',
    entrypoints: POOL_ENTRYPOINT,
    signatures: POOL_SIGNATURE,
  },
  {
    name: 'STAKING_SIGNATURE',
    contract: 'staking',
    entrypoints: STAKING_ENTRYPOINT,
    signatures: STAKING_SIGNATURE,
  },
  {
    name: 'ERC20_SIGNATURE',
    contract: 'erc20',
    entrypoints: ERC20_ENTRYPOINT,
    signatures: ERC20_SIGNATURE,
  },
  vesuTable('VESU_POOL_SIGNATURE', 'VESU_POOL_ENTRYPOINT', 'vesu-pool'),
  vesuTable('VESU_FACTORY_SIGNATURE', 'VESU_FACTORY_ENTRYPOINT', 'vesu-pool-factory'),
  vesuTable('VTOKEN_SIGNATURE', 'VTOKEN_ENTRYPOINT', 'vesu-v-token'),
  vesuTable('VESU_ORACLE_SIGNATURE', 'VESU_ORACLE_ENTRYPOINT', 'vesu-oracle'),
  {
    name: 'PRAGMA_SIGNATURE',
    contract: 'pragma-oracle',
    entrypoints: PRAGMA_ENTRYPOINT,
    signatures: PRAGMA_SIGNATURE,
  },
];

/** Every (table, key) pair, with the entrypoint name the client sends. */
const ENTRIES = TABLES.flatMap((t) =>
  Object.entries(t.entrypoints ?? {}).map(([key, entrypoint]) => ({ table: t, key, entrypoint })),
);

describe('official ABI files', () => {
  it.each(OFFICIAL_CONTRACTS)('%s names its repository, commit and paths', (file) => {
    const { source, functions } = officialAbi(file);
    expect(source.repository).toMatch(/^[\w-]+\/[\w.-]+$/);
    expect(source.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(source.paths.length).toBeGreaterThan(0);
    expect(functions.size).toBeGreaterThan(0);
  });
});

describe('every entrypoint table has its signature table', () => {
  it.each(TABLES.map((t) => [t.name, t] as const))(
    '%s exists, one entry per entrypoint',
    (_, t) => {
      expect(t.entrypoints, `the entrypoint table of ${t.name}`).toBeDefined();
      expect(t.signatures, `${t.name} is not exported`).toBeDefined();
      expect(Object.keys(t.signatures ?? {}).sort()).toEqual(Object.keys(t.entrypoints).sort());
    },
  );
});

describe('every entrypoint the client names is in its contract with the same types', () => {
  it.each(ENTRIES.map((e) => [`${e.table.name}.${e.key}`, e] as const))('%s', (_, e) => {
    const official = officialAbi(e.table.contract).functions.get(e.entrypoint);
    expect(
      official,
      `${e.entrypoint} is not in the official ${e.table.contract} ABI`,
    ).toBeDefined();
    const ours = e.table.signatures?.[e.key];
    expect(ours, `${e.table.name} has no ${e.key}`).toBeDefined();
    expect({ inputs: ours?.inputs, outputs: ours?.outputs }).toEqual({
      inputs: official?.inputs,
      outputs: official?.outputs,
    });
  });
});

const EVENT_TABLES: {
  name: string;
  contract: OfficialContract;
  names: Readonly<Record<string, string>>;
  signatures: Readonly<Record<string, EventSignature>>;
}[] = [
  {
    name: 'POOL_EVENT_SIGNATURE',
    contract: 'staking-pool',
    names: POOL_EVENT_NAME,
    signatures: POOL_EVENT_SIGNATURE,
  },
  {
    name: 'ERC20_EVENT_SIGNATURE',
    contract: 'erc20',
    names: ERC20_EVENT_NAME,
    signatures: ERC20_EVENT_SIGNATURE,
  },
];

describe('every event the client reads is in its contract with the same key and data types', () => {
  const cases = EVENT_TABLES.flatMap((t) =>
    Object.entries(t.names).map(([key, name]) => [`${t.name}.${key}`, { t, key, name }] as const),
  );
  it.each(cases)('%s', (_, { t, key, name }) => {
    const official = officialAbi(t.contract).events.get(name);
    expect(official, `${name} is not an event of the official ${t.contract} ABI`).toBeDefined();
    expect(t.signatures[key]).toEqual({ keys: official?.keys, data: official?.data });
  });
});
