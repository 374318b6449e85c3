import { describe, expect, it, vi } from 'vitest';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { commandContext } from '../../test/helpers/context.js';
import { runStatusCommand, type StatusCommandDeps } from './status.js';

const context = (argv: string[]) => commandContext({ argv });

describe('status --sandbox when the sandbox cannot start', () => {
  it('reports the sandbox unavailable and probes nothing (never the configured real services)', async () => {
    const deps: StatusCommandDeps = {
      resolveEndpoints: vi.fn(async () => {
        throw new AppError(ErrorCode.SERVER_UNREACHABLE, 'the sandbox child process exited (code 1) before it was ready');
      }),
      probeServer: vi.fn(async () => ({ reachable: true })),
      createAggregatorClient: vi.fn(() => {
        throw new Error('must not build a client');
      }),
    };
    const result = await runStatusCommand(context(['--sandbox', '--json']), async () => deps);
    expect(result.data).toEqual({
      network: 'mainnet',
      sandbox: true,
      swapsSupported: true,
      aggregator: { url: null, reachable: false, error: expect.stringContaining('sandbox is not available') },
      server: { url: null, reachable: false, error: expect.stringContaining('sandbox is not available') },
      sandboxError: 'the sandbox child process exited (code 1) before it was ready',
    });
    expect(deps.probeServer).not.toHaveBeenCalled();
    expect(deps.createAggregatorClient).not.toHaveBeenCalled();
    expect(result.human()).toMatch(/sandbox: the sandbox child process exited/);
  });

  it('a cancelled start is a cancellation, not "unavailable"', async () => {
    const deps: StatusCommandDeps = {
      resolveEndpoints: vi.fn(async () => {
        throw new AppError(ErrorCode.CANCELLED, 'cancelled');
      }),
      probeServer: vi.fn(async () => ({ reachable: true })),
      createAggregatorClient: vi.fn(() => {
        throw new Error('must not build a client');
      }),
    };
    await expect(runStatusCommand(context(['--sandbox']), async () => deps)).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  it('--help gives the usage as data, so --json prints {"usage": …}', async () => {
    const deps = { resolveEndpoints: vi.fn(), probeServer: vi.fn(), createAggregatorClient: vi.fn() } as unknown as StatusCommandDeps;
    const loadDeps = vi.fn(async () => deps);
    const result = await runStatusCommand(context(['--help']), loadDeps);
    expect(result.data).toEqual({ usage: expect.stringContaining('Usage: finance-tui status') });
    expect(deps.resolveEndpoints).not.toHaveBeenCalled();
    // nor were the heavy modules (aggregator client, stack) loaded for it
    expect(loadDeps).not.toHaveBeenCalled();
  });
});
