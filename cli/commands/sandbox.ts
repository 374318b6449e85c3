/**
 * `finance-tui sandbox [--port N] [--network NAME] [--json]`: the emulators and our auth server
 * wired to them, shaped like mainnet (the default) or Sepolia (docs/sandbox-chain.md "Networks"),
 * in this process, until Ctrl+C / SIGTERM. Prints one ready line (JSON with --json) and writes
 * the same URLs to `<data>/sandbox.json`; the auth server's logs go to `<data>/sandbox/server.log`.
 * The stop goes through the one stop path (server/main.ts closeGracefully) over all three
 * servers, then prints a stopped line (`{"event": "stopped"}` with --json) and returns: exit 0.
 */
import { once } from 'node:events';
import { join } from 'node:path';
import { parseCommandArgs, parseNetworkFlag, parsePort } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { exitWhenParentGone } from '../platform/child.js';
import { dataDir } from '../platform/paths.js';
import { removeSandboxState, writeSandboxState } from '../platform/sandbox-state.js';
import { millisecondsKnob } from '../platform/knobs.js';
import { LATENCY_MAX_MS } from '../../sandbox/fault-bounds.js';
import { openPrivateLog } from '../../shared/fs.js';

export const USAGE = `Usage: finance-tui sandbox [--port N] [--network mainnet|sepolia] [--json]

Runs the local sandbox: identity-provider, swap-aggregator and chain + paymaster emulators, and
the auth server wired to them. Nothing leaves this machine; the chain id is SN_SANDBOX.

  --port N          auth server port (default $PORT or 3001; 0 = any free port)
  --network NAME    the network the sandbox is shaped like (default mainnet): its tokens, staking
                    contract and Vesu pool at their addresses, and its rules (on sepolia, no swaps);
                    every --sandbox command then acts as on that network
  --json            print the ready document as one JSON line
`;

export const CLOSE_GRACE_MS = 5_000;

export const run: CommandRun = async (ctx) => {
  const { values } = parseCommandArgs(
    ctx.argv,
    { port: { type: 'string' }, network: { type: 'string' } },
    false,
  );
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  const network = parseNetworkFlag(values.network) ?? 'mainnet';
  const port =
    parsePort(values.port) ?? parsePort(ctx.env.PORT?.trim() || undefined, 'PORT') ?? 3001;
  // test knob: latency added to every emulator request (used to catch a client mid-request), as
  // bounded as the faults route's (sandbox/faults.ts); a value that is not one is refused
  const latencyMs = millisecondsKnob(ctx.env, 'FINANCE_TUI_SANDBOX_LATENCY_MS', {
    min: 0,
    max: LATENCY_MAX_MS,
  });
  const dir = dataDir(ctx.env);
  const logFile = join(dir, 'sandbox', 'server.log');
  const [{ startSandbox }, { closeGracefully }, { asyncLog }] = await Promise.all([
    import('../../sandbox/launcher.js'),
    import('../../server/main.js'),
    import('../../server/app.js'),
  ]);
  // 0600 in a 0700 folder, an existing looser file or folder narrowed first
  const logStream = asyncLog(openPrivateLog(logFile));
  // a full disk or a removed folder loses log lines, never the running sandbox
  logStream.on('error', () => undefined);
  const faults =
    latencyMs === undefined
      ? undefined
      : { identity: { latencyMs }, aggregator: { latencyMs }, chain: { latencyMs } };
  const handle = await startSandbox({
    port,
    dataDir: dir,
    env: ctx.env,
    logStream,
    faults,
    network,
  });

  const info = { ...handle.info, logFile };
  await writeSandboxState(ctx.env, info);
  if (ctx.json) ctx.stdout.write(`${JSON.stringify(info)}\n`);
  else {
    ctx.stdout.write(
      [
        `finance-tui sandbox is running, shaped like ${network} (chain SN_SANDBOX; nothing leaves this machine)`,
        `  auth server  ${info.serverUrl}`,
        `  identity     ${info.identityUrl}   (sign-in codes: finance-tui sandbox outbox <email>)`,
        `  aggregator   ${info.aggregatorUrl}`,
        `  chain rpc    ${info.rpcUrl}   (paymaster: ${info.serverUrl}/paymaster)`,
        `  logs         ${logFile}`,
        'Sign in from another terminal: finance-tui login <email> --sandbox. Press Ctrl+C to stop.',
        '',
      ].join('\n'),
    );
  }

  exitWhenParentGone(ctx.env);
  if (!ctx.signal.aborted) await once(ctx.signal, 'abort');
  let outcome: Awaited<ReturnType<typeof closeGracefully>>;
  try {
    outcome = await closeGracefully(
      {
        close: () => handle.close(),
        servers: [handle.server, handle.aggregator, handle.identity].map((app) => app.server),
      },
      { graceMs: CLOSE_GRACE_MS, log: (message) => handle.server.log.info(message) },
    );
  } finally {
    // only if it is still ours (another sandbox may have replaced it), under the file's lock
    await removeSandboxState(ctx.env, process.pid);
    logStream.end();
  }
  const cut = outcome === 'cut' ? ' (connections still open after 5 s were cut)' : '';
  ctx.stdout.write(
    ctx.json
      ? `${JSON.stringify({ event: 'stopped', outcome })}\n`
      : `finance-tui sandbox stopped${cut}.\n`,
  );
  return undefined;
};
