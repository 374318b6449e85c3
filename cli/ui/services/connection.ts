/**
 * The app's connection (docs/architecture.md "Interactive app"): connect finds or starts the
 * sandbox (or the bundled auth server) through the core's endpoints, the features that follow
 * from being connected, the registry's tokens, and close.
 */
import { join } from 'node:path';
import { listTokens } from '../../../shared/tokens.js';
import type { Environment } from '../services.js';
import type { ServicesModule } from './root.js';

export const registerConnection: ServicesModule<'features' | 'connect' | 'tokens' | 'close'> = (
  root,
) => ({
  // balances read the sandbox's chain, the rpcUrl setting, or starknet.js's public node
  get features() {
    const connected = root.endpoints !== undefined;
    return {
      balances: connected,
      trade: connected,
      multiSwap: connected,
      batch: connected,
      send: connected,
      history: connected,
      portfolio: connected,
    };
  },

  async connect({ signal }): Promise<Environment> {
    const modules = await root.load();
    let startedSandbox = false;
    const found = await modules.endpoints.resolveEndpoints(
      root.env,
      { sandbox: root.sandbox },
      { signal, onProgress: (event) => (startedSandbox ||= event.kind === 'sandbox-start') },
    );
    root.endpoints = found;
    let startedChild: Environment['startedChild'];
    if (startedSandbox)
      startedChild = {
        what: 'the local sandbox',
        logFile: join(found.dataDir, 'sandbox-child.log'),
      };
    else if (!found.sandbox) {
      // The bundled auth server, started now when nothing answers at a loopback server URL, so
      // the header can say so. Failing here (no credentials in the environment, a remote URL
      // down) is left to the first call that needs the server, which says it in plain words:
      // balances and quotes work without it.
      const { ensureAuthServer } = await import('../../core/auth-server.js');
      const server = await ensureAuthServer(found, { signal }).catch(() => undefined);
      if (server?.started)
        startedChild = {
          what: 'the auth server',
          logFile: join(found.dataDir, 'serve-child.log'),
        };
    }
    const urls = {
      server: found.serverUrl,
      aggregator: found.aggregatorUrl,
      chain: found.rpcUrl,
      paymaster: found.paymasterUrl,
      identity: found.identityUrl,
    };
    return {
      sandbox: found.sandbox,
      network: found.network,
      serverUrl: found.serverUrl,
      urls,
      ...(startedChild ? { startedChild } : {}),
    };
  },

  tokens() {
    return listTokens(root.endpoints?.network ?? 'mainnet').map((t) => ({
      symbol: t.symbol,
      name: t.name,
      decimals: t.decimals,
    }));
  },

  async close() {
    const release = root.endpoints?.release;
    root.endpoints = undefined;
    await release?.();
  },
});
