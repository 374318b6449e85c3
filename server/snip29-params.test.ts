/**
 * The SNIP-29 params schema of the relay (snip29-params.ts): the same keys as the official schema
 * file at every object, unknown keys refused at every level, `fee_mode` required under its own
 * spelling, and what starknet.js and our client send still accepted.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { outsideExecution } from '../test/helpers/typed-data.js';
import {
  AccountDeploymentData,
  Call,
  DefaultFeeMode,
  ExecutableUserInvoke,
  OutsideCallV1,
  OutsideCallV2,
  OutsideExecutionMessageV1,
  OutsideExecutionMessageV2,
  SponsoredFeeMode,
  StarknetDomain,
  TimeBounds,
  UserInvoke,
  UserParameters,
  snip29ParamsProblem,
} from './snip29-params.js';

type Json = Record<string, unknown>;
const spec = JSON.parse(
  readFileSync(
    fileURLToPath(new URL('../sandbox/chain/specs/snip-29/paymaster_api.json', import.meta.url)),
    'utf8',
  ),
) as { components: { schemas: Record<string, Json> } };
const schemas = spec.components.schemas;

const keysOf = (schema: Json): string[] => Object.keys(schema.properties as Json).sort();
const requiredOf = (schema: Json): string[] => [...((schema.required as string[]) ?? [])].sort();

describe('the same keys as the SNIP-29 schema file, object by object', () => {
  const feeModes = schemas.FEE_MODE?.oneOf as Json[];
  const pairs: Array<[string, Json, Json, string[]?]> = [
    ['USER_INVOKE', UserInvoke as unknown as Json, schemas.USER_INVOKE as Json],
    [
      'CALL (all optional in the schema; all required here)',
      Call as never,
      schemas.CALL as Json,
      ['calldata', 'selector', 'to'],
    ],
    [
      'EXECUTABLE_USER_INVOKE',
      ExecutableUserInvoke as never,
      schemas.EXECUTABLE_USER_INVOKE as Json,
    ],
    [
      'ACCOUNT_DEPLOYMENT_DATA',
      AccountDeploymentData as never,
      schemas.ACCOUNT_DEPLOYMENT_DATA as Json,
    ],
    [
      'USER_PARAMETERS v1',
      UserParameters as never,
      (schemas.USER_PARAMETERS!.oneOf as Json[])[0] as Json,
    ],
    ['FEE_MODE sponsored', SponsoredFeeMode as never, feeModes[0] as Json],
    ['FEE_MODE default', DefaultFeeMode as never, feeModes[1] as Json],
    ['TIME_BOUNDS', TimeBounds as never, schemas.TIME_BOUNDS as Json],
    ['STARKNET_DOMAIN', StarknetDomain as never, schemas.STARKNET_DOMAIN as Json],
    [
      'OUTSIDE_EXECUTION_MESSAGE_V1',
      OutsideExecutionMessageV1 as never,
      schemas.OUTSIDE_EXECUTION_MESSAGE_V1 as Json,
    ],
    [
      'OUTSIDE_EXECUTION_MESSAGE_V2',
      OutsideExecutionMessageV2 as never,
      schemas.OUTSIDE_EXECUTION_MESSAGE_V2 as Json,
    ],
    // the schema's quirk: its `required` names To/Selector/Calldata, keys V1 does not have
    [
      'OUTSIDE_CALL_V1',
      OutsideCallV1 as never,
      schemas.OUTSIDE_CALL_V1 as Json,
      ['calldata', 'selector', 'to'],
    ],
    ['OUTSIDE_CALL_V2', OutsideCallV2 as never, schemas.OUTSIDE_CALL_V2 as Json],
  ];

  it.each(pairs)('%s', (_name, ours, theirs, required) => {
    expect(keysOf(ours)).toEqual(keysOf(theirs));
    expect(requiredOf(ours)).toEqual(required ?? requiredOf(theirs));
    expect(ours.additionalProperties).toBe(false);
  });
});

const own = '0x0' + '12ab'.repeat(15) + 'cde';
const deployment = {
  address: own,
  class_hash: '0x36078334509b514626504edc9fb252328d1a240e4e948bef8d0c08dff45927f',
  salt: '0x0' + '5'.repeat(63),
  calldata: ['0x0', '0x' + '5'.repeat(63), '0x1'],
  version: 1,
};
const calls = [{ to: '0x1', selector: '0x2', calldata: ['0x3', '0x0004'] }];
const sponsored = { version: '0x1', fee_mode: { mode: 'sponsored' } };
const inStrk = { version: '0x1', fee_mode: { mode: 'default', gas_token: '0x4718' } };
const signed = { user_address: own, typed_data: outsideExecution(2, 3), signature: ['0x1', '0x2'] };

describe('accepted: what starknet.js and our client send', () => {
  it.each([
    [
      'build invoke',
      'paymaster_buildTransaction',
      { type: 'invoke', invoke: { user_address: own, calls } },
      inStrk,
    ],
    [
      'build deploy_and_invoke (padded felts)',
      'paymaster_buildTransaction',
      { type: 'deploy_and_invoke', invoke: { user_address: own, calls }, deployment },
      sponsored,
    ],
    ['build deploy', 'paymaster_buildTransaction', { type: 'deploy', deployment }, sponsored],
    ['execute invoke', 'paymaster_executeTransaction', { type: 'invoke', invoke: signed }, inStrk],
    [
      'execute deploy_and_invoke',
      'paymaster_executeTransaction',
      { type: 'deploy_and_invoke', invoke: signed, deployment },
      sponsored,
    ],
    [
      'time bounds as numbers (starknet.js) or decimal strings (the schema), a tip',
      'paymaster_executeTransaction',
      { type: 'invoke', invoke: signed },
      {
        version: '0x1',
        fee_mode: { mode: 'default', gas_token: '0x4718', tip: { custom: 5 } },
        time_bounds: { execute_after: 1, execute_before: '1900000000' },
      },
    ],
  ] as const)('%s', (_name, method, transaction, parameters) => {
    expect(
      snip29ParamsProblem(method, {
        transaction: transaction as Json,
        parameters: parameters as Json,
      }),
    ).toBeUndefined();
  });
});

describe('refused: anything SNIP-29 does not define, at any level', () => {
  const executeInvoke = (invoke: Json = signed) => ({ type: 'invoke', invoke });
  it.each([
    ['no fee_mode', executeInvoke(), { version: '0x1' }, /parameters lacks "fee_mode"/],
    [
      'feeMode (starknet.js spelling)',
      executeInvoke(),
      { version: '0x1', feeMode: { mode: 'sponsored' } },
      /parameters has a key SNIP-29 does not define: "feeMode"/,
    ],
    [
      'fee_mode with an unknown key',
      executeInvoke(),
      { version: '0x1', fee_mode: { mode: 'sponsored', payer: '0x1' } },
      /parameters.fee_mode has a key SNIP-29 does not define: "payer"/,
    ],
    [
      'a mode SNIP-29 does not know',
      executeInvoke(),
      { version: '0x1', fee_mode: { mode: 'free' } },
      /parameters.fee_mode/,
    ],
    [
      'default without a gas token',
      executeInvoke(),
      { version: '0x1', fee_mode: { mode: 'default' } },
      /parameters.fee_mode lacks "gas_token"/,
    ],
    [
      'an unknown key in parameters',
      executeInvoke(),
      { ...inStrk, sponsor: true },
      /parameters has a key SNIP-29 does not define: "sponsor"/,
    ],
    [
      'an unknown key in time_bounds',
      executeInvoke(),
      { ...inStrk, time_bounds: { execute_after: 1, execute_before: 2, x: 1 } },
      /parameters.time_bounds has a key/,
    ],
    [
      'an unknown key in the tip',
      executeInvoke(),
      { ...inStrk, fee_mode: { mode: 'default', gas_token: '0x1', tip: { custom: 1, x: 1 } } },
      /parameters.fee_mode/,
    ],
    [
      'an unknown key in transaction',
      { ...executeInvoke(), fee_mode: { mode: 'sponsored' } },
      inStrk,
      /transaction has a key SNIP-29 does not define: "fee_mode"/,
    ],
    [
      'an unknown key in invoke',
      executeInvoke({ ...signed, sponsored: true }),
      inStrk,
      /transaction.invoke has a key SNIP-29 does not define: "sponsored"/,
    ],
    [
      'an unknown key in the typed data',
      executeInvoke({ ...signed, typed_data: { ...signed.typed_data, extra: 1 } }),
      inStrk,
      /transaction.invoke.typed_data/,
    ],
    [
      'an unknown key in the message',
      executeInvoke({
        ...signed,
        typed_data: {
          ...signed.typed_data,
          message: { ...signed.typed_data.message, Payer: '0x1' },
        },
      }),
      inStrk,
      /transaction.invoke.typed_data/,
    ],
    [
      'an unknown key in the domain',
      executeInvoke({
        ...signed,
        typed_data: { ...signed.typed_data, domain: { ...signed.typed_data.domain, sponsor: '1' } },
      }),
      inStrk,
      /transaction.invoke.typed_data/,
    ],
    [
      'calls in an executable invoke',
      executeInvoke({ ...signed, calls }),
      inStrk,
      /transaction.invoke has a key SNIP-29 does not define: "calls"/,
    ],
    [
      'an unknown key in deployment',
      { type: 'deploy', deployment: { ...deployment, paymaster: '0x1' } },
      sponsored,
      /transaction.deployment has a key SNIP-29 does not define: "paymaster"/,
    ],
    [
      'a deploy carrying an invoke',
      { type: 'deploy', deployment, invoke: signed },
      sponsored,
      /transaction has a key SNIP-29 does not define: "invoke"/,
    ],
    [
      'a type SNIP-29 does not define',
      { type: 'invoke_v2', invoke: signed },
      sponsored,
      /transaction.type must be one of/,
    ],
    [
      'a felt that is not hex',
      executeInvoke({ ...signed, signature: ['1', '2'] }),
      inStrk,
      /transaction.invoke.signature.0/,
    ],
  ] as const)('%s', (_name, transaction, parameters, message) => {
    const problem = snip29ParamsProblem('paymaster_executeTransaction', {
      transaction: transaction as Json,
      parameters: parameters as Json,
    });
    expect(problem).toMatch(message);
  });

  it('an unknown key inside a call of a build', () => {
    expect(
      snip29ParamsProblem('paymaster_buildTransaction', {
        transaction: {
          type: 'invoke',
          invoke: { user_address: own, calls: [{ ...calls[0], value: '0x1' }] },
        },
        parameters: sponsored,
      }),
    ).toMatch(/transaction.invoke.calls.0 has a key SNIP-29 does not define: "value"/);
  });

  it('a key in a message is quoted and cut short, whatever its length', () => {
    const problem = snip29ParamsProblem('paymaster_buildTransaction', {
      transaction: { type: 'deploy', deployment },
      parameters: { ...sponsored, ['x'.repeat(5_000)]: 1 },
    });
    expect(problem).toMatch(/"x{40}…"$/);
  });
});
