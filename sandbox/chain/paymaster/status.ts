/**
 * The paymaster's read-only SNIP-29 methods (docs/contracts.md C): isAvailable,
 * getSupportedTokens and trackingIdToLatestHash.
 */
import { hex } from '../executor.js';
import { feltParam } from '../jsonrpc.js';
import { refuse } from './errors.js';
import { supportedTokens } from './fees.js';
import { MAX_TRACKED, type PaymasterModule } from './root.js';

export const registerStatus: PaymasterModule = (root, { chain, tracking }) => {
  root.method('paymaster_isAvailable', { params: [], handler: () => true });

  root.method('paymaster_getSupportedTokens', {
    params: [],
    handler: () => supportedTokens(chain),
  });

  root.method('paymaster_trackingIdToLatestHash', {
    params: ['tracking_id'],
    handler: (params) => {
      const id = feltParam(params.tracking_id, 'tracking_id');
      const transactionHash = tracking.hashOf(hex(id));
      if (transactionHash === undefined)
        throw refuse(
          'INVALID_ID',
          `no execution was tracked as ${hex(id)} (unknown, or forgotten after ${MAX_TRACKED} newer ones)`,
        );
      const tx = chain.ledger.transaction(transactionHash);
      // the transaction is in a block as soon as the node shows it; nothing is ever dropped here
      const status = tx !== undefined && chain.now() >= tx.visibleAt ? 'accepted' : 'active';
      return { transaction_hash: hex(transactionHash), status };
    },
  });
};
