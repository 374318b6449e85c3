/**
 * The TUI's real services port (cli/ui/adapter.ts) over a real sandbox on loopback (the bin's
 * `sandbox` command run in this worker: test/helpers/sandbox-in-process.ts): what the
 * screens get from the core when they sign in, plan and sign a trade, a multi-swap, a batch, a
 * supply and a borrow, and read the lending positions and the history. The screens themselves are
 * tested over a fake port (cli/ui/screens/) and, whole, in a terminal (tui-terminal); this proves
 * the port under them is the real core.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../cli/ui/adapter.js';
import type { Receipt, Session, PlanView, PlanRequest, TuiServices } from '../cli/ui/services.js';
import { AppError, ErrorCode } from '../shared/errors.js';
import { parseAmount } from '../shared/amount.js';
import { HEALTH_MARGIN } from '../shared/vesu.js';
import { cleanEnv, tempHome } from './helpers/process.js';
import { type InProcessSandbox, startSandboxInProcess } from './helpers/sandbox-in-process.js';

const RECIPIENT = `0x0${'7'.repeat(63)}`;
const ONE_ETH = 10n ** 18n;

/** A receipt's balance change of one token (the core's receipt lines). */
const changeOf = (receipt: Receipt, symbol: string) =>
  receipt.lines.find((l) => l.kind === 'change' && l.amounts[0]?.symbol === symbol)?.amounts[0];

/** A plan request without its slippage (each kind's own, as the union holds them). */
type Asked = {
  [K in PlanRequest['kind']]: Omit<Extract<PlanRequest, { kind: K }>, 'slippageBps'>;
}[PlanRequest['kind']];

describe('the TUI services port over a real sandbox', () => {
  const home = tempHome();
  let sandbox: InProcessSandbox;
  let services: TuiServices;
  let session: Session;
  const signal = new AbortController().signal;

  beforeAll(async () => {
    const env = cleanEnv({ FINANCE_TUI_HOME: home.dir });
    sandbox = startSandboxInProcess(['sandbox', '--port', '0', '--json'], env);
    await sandbox.waitForLine((line) => line.includes('"ready"'), 25_000);
    services = createServices({ env, sandbox: true });
    const environment = await services.connect({ signal });
    expect(environment).toMatchObject({ sandbox: true, network: 'mainnet' });
    // found the running sandbox: nothing started for this session
    expect(environment.startedChild).toBeUndefined();
    await services.requestCode('alice@example.com', { signal });
    const code = await services.sandboxCode?.('alice@example.com', { signal });
    expect(code).toMatch(/^[0-9]{6}$/);
    session = await services.verifyCode('alice@example.com', code ?? '', { signal });
  }, 60_000);

  afterAll(async () => {
    await services?.close();
    sandbox?.kill();
    await sandbox?.exited;
    home.cleanup();
  });

  const plan = (request: Asked): Promise<PlanView> => {
    const progress: string[] = [];
    return services
      .plan({ ...request, slippageBps: 100 } as PlanRequest, session, {
        signal,
        onProgress: (line) => progress.push(line),
      })
      .then((p) => {
        // the spinner had the core's steps to show
        expect(progress.length).toBeGreaterThan(0);
        return p;
      });
  };
  const execute = async (p: PlanView): Promise<{ receipt: Receipt; steps: string[] }> => {
    const steps: string[] = [];
    const receipt = await services.execute(p, session, {
      signal,
      onStep: (s) => steps.push(s.kind),
    });
    return { receipt, steps };
  };

  const sent = async (): Promise<number> =>
    (await services.history(session, { signal })).entries.length;

  it('a trade: planned from the core (quote, exact approve, swap, simulation), signed, its receipt with the exact changes', async () => {
    const first = (await sent()) === 0;
    const p = await plan({
      kind: 'trade',
      params: { amount: '1', from: 'ETH', to: 'USDC' },
    });
    expect(p.quotes).toHaveLength(1);
    expect(p.quotes[0]).toMatchObject({
      from: { symbol: 'ETH' },
      to: { symbol: 'USDC' },
      amountIn: { baseUnits: ONE_ETH.toString() },
    });
    expect(p.calls.map((c) => c.entrypoint)).toEqual(['approve', 'swap']);
    expect(p.calls[0]?.description).toMatch(/^approve 1 ETH to the router/);
    expect(p.simulatedChanges.find((c) => c.symbol === 'ETH')?.delta).toBe(-ONE_ETH);
    const minimum = BigInt(p.quotes[0]?.minimumReceived.baseUnits ?? '0');
    expect(p.simulatedChanges.find((c) => c.symbol === 'USDC')?.delta).toBeGreaterThanOrEqual(
      minimum,
    );
    expect(p.headline).toMatch(/swap 1 ETH → at least [0-9.]+ USDC/);
    expect(p.expiresAt).toBeGreaterThan(Date.now());
    // the first transaction of a new sandbox wallet deploys its account too
    expect(p.deploysAccount).toBe(first);

    const { receipt, steps } = await execute(p);
    expect(steps).toEqual(expect.arrayContaining(['signing', 'submitted', 'confirmed']));
    expect(receipt).toMatchObject({ status: 'succeeded', headline: 'Swap confirmed' });
    expect(receipt.transactionHash).toMatch(/^0x[0-9a-f]+$/);
    // the core's receipt lines: the balance changes exact (bigint, with decimals), then each output
    const usdc = changeOf(receipt, 'USDC');
    expect(usdc?.baseUnits).toBeGreaterThanOrEqual(minimum);
    expect(usdc?.decimals).toBe(6);
    expect(receipt.lines.find((l) => l.kind === 'arrives')?.words).toMatch(
      /^received [0-9.]+ USDC \(you confirmed at least [0-9.]+ USDC\)$/,
    );
  });

  it('a multi-swap and a batch (a swap and a transfer) through the same port, then this wallet’s history, newest first', async () => {
    const before = await sent();
    const multi = await plan({
      kind: 'multi-swap',
      params: {
        pairs: [
          { amount: '100', from: 'USDC', to: 'ETH' },
          { amount: '50', from: 'STRK', to: 'ETH' },
        ],
      },
    });
    expect(multi.quotes.map((q) => `${q.from.symbol}>${q.to.symbol}`)).toEqual([
      'USDC>ETH',
      'STRK>ETH',
    ]);
    expect(multi.calls.map((c) => c.entrypoint)).toEqual(['approve', 'swap', 'approve', 'swap']);
    expect((await execute(multi)).receipt).toMatchObject({
      status: 'succeeded',
      headline: 'Multi-swap confirmed',
    });

    const batch = await plan({
      kind: 'batch',
      params: {
        swaps: [{ amount: '10', from: 'USDC', to: 'STRK' }],
        sends: [{ amount: '5', token: 'USDC', to: RECIPIENT }],
      },
    });
    const send = batch.lines.find((l) => l.to !== null);
    expect(send?.words).toBe(`send 5 USDC to ${RECIPIENT}`);
    expect(send?.amounts.map((a) => [a.symbol, a.decimals, a.baseUnits])).toEqual([
      ['USDC', 6, 5_000_000n],
    ]);
    expect(batch.calls.map((c) => c.entrypoint)).toEqual(['approve', 'swap', 'transfer']);
    expect(batch.simulatedChanges.find((c) => c.symbol === 'USDC')?.delta).toBe(-15_000_000n);
    const { receipt } = await execute(batch);
    expect(receipt.headline).toBe('Batch confirmed');
    expect(changeOf(receipt, 'USDC')?.baseUnits).toBe(-15_000_000n);

    const { entries: history, setAside } = await services.history(session, { signal });
    expect(setAside).toBeNull();
    expect(history).toHaveLength(before + 2);
    expect(history.slice(0, 2).map((h) => [h.kind, h.status])).toEqual([
      ['batch', 'succeeded'],
      ['multi-swap', 'succeeded'],
    ]);
    expect(BigInt(history[0]?.transactionHash ?? '0')).toBe(BigInt(receipt.transactionHash));
  });

  it('lending: a supply and a borrow planned and signed through the port, then its positions with the health factor', async () => {
    const supply = await plan({
      kind: 'supply',
      params: { amount: '10', token: 'USDC' },
    });
    expect(supply.acknowledgments).toEqual([]);
    // the core's lines: the supply, what leaves in all, the gas; no terms
    expect(supply.lines.filter((l) => l.kind === 'term')).toEqual([]);
    expect(supply.lines[0]?.words).toMatch(/^supply 10 USDC to the Vesu \w+ pool$/);
    expect((await execute(supply)).receipt).toMatchObject({ status: 'succeeded' });
    // 0.5 ETH (about $1 500) × max LTV 0.8 against 500 USDC: a health factor well above 1.2
    const borrow = await plan({
      kind: 'borrow',
      params: { debt: 'USDC', amount: '500', collateral: 'ETH', collateralAmount: '0.5' },
    });
    expect(borrow.headline).toMatch(/health factor — → [0-9.]+/);
    // what the person consents to, in the core's words: what leaves, arrives, is owed after
    const words = borrow.lines.map((l) => l.words);
    expect(words.slice(0, 2)).toEqual([
      expect.stringMatching(/^deposit 0\.5 ETH as collateral in the Vesu \w+ pool$/),
      'arrives in the wallet: 500 USDC (borrowed)',
    ]);
    expect(words[2]).toMatch(
      /^position after: owes 500(\.\d+)? USDC, 0\.5 ETH collateral; health factor — → [0-9.]+$/,
    );
    expect(words[3]).toMatch(/^leaves the wallet: 0\.5 ETH; the wallet holds [0-9.]+ ETH$/);
    expect(borrow.acknowledgments).toEqual([]);
    expect((await execute(borrow)).receipt).toMatchObject({ status: 'succeeded' });

    const doc = await services.lending?.({ signal });
    expect(doc?.supplied.find((s) => s.token === 'USDC')?.amount).toMatch(/^10(\.[0-9]+)?$/);
    const position = doc?.borrows.find(
      (b) => b.collateral.token === 'ETH' && b.debt.token === 'USDC',
    );
    expect(position?.collateral.amount).toBe('0.5');
    expect(position?.debt.amount).toMatch(/^500(\.[0-9]+)?$/);
    expect(parseAmount(position?.healthFactor ?? '0', 18)).toBeGreaterThan(HEALTH_MARGIN);
    expect(position?.maxLtv).toMatch(/^0\.[0-9]+$/);
  });

  it('refusals reach the screens as the core’s codes, and nothing is signed', async () => {
    const before = await sent();
    const refused = (request: Asked) =>
      plan(request).then(
        () => undefined,
        (error: unknown) => (error instanceof AppError ? error.code : String(error)),
      );
    expect(
      await refused({
        kind: 'trade',
        params: { amount: '100', from: 'ETH', to: 'USDC' },
      }),
    ).toBe(ErrorCode.INSUFFICIENT_BALANCE);
    expect(
      await refused({
        kind: 'multi-swap',
        params: {
          pairs: [
            { amount: '1', from: 'USDC', to: 'ETH' },
            { amount: '1', from: 'STRK', to: 'ETH' },
            { amount: '1', from: 'DAI', to: 'ETH' },
            { amount: '1', from: 'USDT', to: 'ETH' },
          ],
        },
      }),
    ).toBe(ErrorCode.BATCH_LIMIT_EXCEEDED);
    expect(await sent()).toBe(before);
  });
});
