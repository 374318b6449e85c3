import { describe, expect, it, vi } from 'vitest';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { commandContext } from '../../test/helpers/context.js';
import { runStatusCommand } from './status.js';
import { status, type StatusDeps } from '../core/status.js';

/** Deps whose endpoint resolution fails with `error`, and that must not be used past it. */
function failingToResolve(error: AppError): StatusDeps {
  return {
    resolveEndpoints: vi.fn(async () => {
      throw error;
    }),
    probeServer: vi.fn(async () => ({ reachable: true })),
    createAggregatorClient: vi.fn(() => {
      throw new Error('must not build a client');
    }),
  };
}

describe('status --sandbox when the sandbox cannot start', () => {
  it('reports the sandbox unavailable and probes nothing (never the configured real services)', async () => {
    const deps = failingToResolve(
      new AppError(
        ErrorCode.SERVER_UNREACHABLE,
        'the sandbox child process exited (code 1) before it was ready',
      ),
    );
    const data = await status({}, { sandbox: true }, {}, deps);
    expect(data).toEqual({
      network: 'sandbox',
      sandbox: true,
      swapsSupported: true,
      aggregator: {
        url: null,
        reachable: false,
        error: expect.stringContaining('sandbox is not available'),
      },
      server: {
        url: null,
        reachable: false,
        usable: false,
        error: expect.stringContaining('sandbox is not available'),
      },
      sandboxError: 'the sandbox child process exited (code 1) before it was ready',
    });
    expect(deps.probeServer).not.toHaveBeenCalled();
    expect(deps.createAggregatorClient).not.toHaveBeenCalled();
    const result = await runStatusCommand(
      commandContext({ argv: ['--sandbox'] }),
      async () => deps,
    );
    expect(result.human()).toMatch(/sandbox: the sandbox child process exited/);
  });

  it('a cancelled start is a cancellation, not "unavailable"', async () => {
    const deps = failingToResolve(new AppError(ErrorCode.CANCELLED, 'cancelled'));
    await expect(status({}, { sandbox: true }, {}, deps)).rejects.toMatchObject({
      code: 'CANCELLED',
    });
  });

  it('--help gives the usage as data, so --json prints {"usage": …}, and loads nothing', async () => {
    const loadDeps = vi.fn(async () => ({}) as StatusDeps);
    const result = await runStatusCommand(commandContext({ argv: ['--help'] }), loadDeps);
    expect(result.data).toEqual({ usage: expect.stringContaining('Usage: finance-tui status') });
    expect(loadDeps).not.toHaveBeenCalled();
  });
});
