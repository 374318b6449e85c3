/**
 * The history screen: newest first, one transaction whole, an unreadable file.
 * The TUI over a fake services port (pure UI logic; the real program is driven in tmux by
 * test/tui-terminal.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openFromHome, signedIn } from '../../../test/helpers/screens.js';
import { KEYS, type Rendered, renderWithProviders } from '../../../test/helpers/tui.js';

let ui: Rendered | undefined;
afterEach(() => {
  ui?.unmount();
  ui = undefined;
});

describe('history', () => {
  it("lists the wallet's transactions newest first; ↑/↓ show one whole, a revert with its reason", async () => {
    const services = signedIn({
      features: { history: true },
      history: [
        {
          transactionHash: `0x${'a'.repeat(64)}`,
          at: '2026-11-24T10:05:00.000Z',
          kind: 'send',
          summary: 'send 1 STRK to 0x0555…5555',
          status: 'succeeded',
        },
        {
          transactionHash: `0x${'b'.repeat(64)}`,
          at: '2026-11-24T10:01:00.000Z',
          kind: 'trade',
          summary: 'swap 100 USDC → at least 0.03 ETH',
          status: 'reverted',
          revertReason: 'min_received not met',
          fee: '0.012 STRK',
        },
      ],
    });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'History');
    let frame = await ui.waitForFrame((f) => f.includes('History (1 of 2'));
    expect(frame).toMatch(/› 2026-11-24 10:05 ✓ Send\s+send 1 STRK/);
    expect(frame).toMatch(/2026-11-24 10:01 ✗ Trade\s+swap 100 USDC/);
    expect(frame).toContain(`Hash    0x${'a'.repeat(64)}`);
    frame = await ui.press(KEYS.down);
    expect(frame).toContain('History (2 of 2');
    expect(frame).toContain('reverted: nothing moved but its fee, 0.012 STRK');
    expect(frame).toContain('Planned swap 100 USDC');
    expect(frame).toContain('Reason  min_received not met');
    frame = await ui.press(KEYS.escape);
    expect(frame).toContain('› History');
  });

  it("the wallet's liquidations, read from the chain, are listed apart: not sent by this client, exact", async () => {
    ui = renderWithProviders(
      signedIn({
        features: { history: true },
        historyLiquidations: [
          {
            pool: 'Prime',
            transactionHash: `0x${'c'.repeat(64)}`,
            blockNumber: 7,
            liquidator: `0x${'d'.repeat(64)}`,
            collateral: { token: 'ETH', seized: '0.5', seizedBaseUnits: '500000000000000000' },
            debt: {
              token: 'USDC',
              repaid: '900.000001',
              repaidBaseUnits: '900000001',
              badDebt: '12.5',
              badDebtBaseUnits: '12500000',
            },
            left: { collateral: '0', collateralBaseUnits: '0', debt: '0', debtBaseUnits: '0' },
          },
        ],
      }),
    );
    await openFromHome(ui, 'History');
    const frame = (await ui.waitForFrame((f) => f.includes('Liquidated'))).replace(/\s+/g, ' ');
    expect(frame).toContain('Liquidated (read from the chain; not sent by this client)');
    expect(frame).toContain(
      'ETH/USDC liquidated: 0.5 ETH of collateral seized, 900.000001 USDC of debt repaid (bad debt 12.5 USDC); left 0 ETH of collateral, 0 USDC of debt',
    );
    expect(frame).toContain('no transactions from this wallet yet');
  });

  it('an unreadable history file is said, with where it was moved', async () => {
    ui = renderWithProviders(
      signedIn({ features: { history: true }, historySetAside: '/data/history.json.corrupt-1' }),
    );
    await openFromHome(ui, 'History');
    const frame = await ui.waitForFrame((f) => f.includes('could not be read'));
    expect(frame).toContain('moved to /data/history.json.corrupt-1');
    expect(frame).toContain('no transactions from this wallet yet');
  });
});
