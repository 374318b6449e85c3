/**
 * A Pragma-like price oracle (docs/sandbox-chain.md "Pragma oracle"): at the real oracle's address
 * of the network the chain is shaped like (shared/pragma.ts PRAGMA_ORACLE), answering
 * `get_data_median`, `get_data` and `get_decimals` as astraly-labs/pragma-oracle's `IPragmaABI`
 * does (pragma-oracle/src/oracle/oracle.cairo at b02ad9e4): a `DataType` in, a
 * `PragmaPricesResponse` out. Only spot pairs are served; a pair without a price answers what the
 * real oracle answers for a pair with no entries (price 0, decimals 0, no sources, `Some(0)`), and
 * a future or generic entry reverts. Prices carry 8 decimals, as Pragma's USD pairs do; the
 * sources keep publishing, so the median's timestamp is the chain's time now. The sandbox's price
 * knob (`sandbox price`) sets a pair's price.
 */
import { shortString } from 'starknet';
import {
  encodePragmaResponse,
  pairIdFelt,
  PRAGMA_OTHER_SELECTOR,
  PRAGMA_SELECTOR,
  PRAGMA_USD_DECIMALS,
} from '../../shared/pragma.js';
import { type CallContext, type Contract, EntryPointNotFound, Revert } from './executor.js';
import type { StateReader, StateView } from './ledger.js';

export const PRAGMA_CLASS_HASH = BigInt(shortString.encodeShortString('sandbox::pragma_oracle'));

/** How many publishers the sandbox's median says it aggregated. */
const SOURCES = 3;

export class PragmaOracleContract implements Contract {
  readonly classHash = PRAGMA_CLASS_HASH;
  readonly #now: () => bigint;

  constructor(now: () => bigint) {
    this.#now = now;
  }

  static key(pairId: bigint): string {
    return `pragma:${pairId.toString(16)}`;
  }

  /** Sets `pair`'s median (8 decimals); undefined removes it (the pair then has no entries). */
  setPrice(state: StateView, pair: string, price: bigint | undefined): void {
    state.store(PragmaOracleContract.key(pairIdFelt(pair)), price ?? null);
  }

  price(state: Pick<StateReader, 'stored'>, pairId: bigint): bigint | undefined {
    return state.stored<bigint | null>(PragmaOracleContract.key(pairId)) ?? undefined;
  }

  /** The pair id of a `DataType` (SpotEntry only), else the revert the real oracle gives. */
  #spotPair(calldata: readonly bigint[], extra: number): bigint {
    const [variant, pairId] = calldata;
    if (variant === undefined || pairId === undefined)
      throw new Revert('Failed to deserialize param #1');
    if (variant !== 0n) throw new Revert('Wrong data type');
    if (calldata.length !== 2 + extra)
      throw new Revert(`Failed to deserialize param #${Math.min(calldata.length, 2 + extra)}`);
    return pairId;
  }

  #median(state: StateView, pairId: bigint): bigint[] {
    const price = this.price(state, pairId);
    if (price === undefined)
      return encodePragmaResponse({ price: 0n, decimals: 0, lastUpdated: 0n, sources: 0 });
    return encodePragmaResponse({
      price,
      decimals: PRAGMA_USD_DECIMALS,
      lastUpdated: this.#now(),
      sources: SOURCES,
    });
  }

  invoke(ctx: CallContext, selector: bigint, calldata: readonly bigint[]): bigint[] {
    switch (selector) {
      case PRAGMA_SELECTOR.get_data_median:
        return this.#median(ctx.state, this.#spotPair(calldata, 0));
      case PRAGMA_OTHER_SELECTOR.get_data: {
        // (DataType, AggregationMode): Median, Mean and ConversionRate of one sandbox price agree
        const pairId = this.#spotPair(calldata, 1);
        const mode = calldata[2] as bigint;
        if (mode > 3n) throw new Revert('Failed to deserialize param #2');
        return this.#median(ctx.state, pairId);
      }
      case PRAGMA_OTHER_SELECTOR.get_decimals: {
        const pairId = this.#spotPair(calldata, 0);
        return [this.price(ctx.state, pairId) === undefined ? 0n : BigInt(PRAGMA_USD_DECIMALS)];
      }
      default:
        throw new EntryPointNotFound(selector);
    }
  }
}
