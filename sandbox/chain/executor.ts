/**
 * Contract calls on a StateView: each call becomes an invocation node (what a Starknet trace
 * shows), nested calls become children, events sit on the invocation that emitted them with a
 * global `order`. A contract fails a call by throwing `Revert`; the executor adds one frame per
 * contract the failure passes through, and `revertReason` renders them the way a Starknet node
 * words a revert.
 */
import { fromU256 } from '../../shared/erc20.js';
import type { StateView } from './ledger.js';

export const hex = (value: bigint): string => `0x${value.toString(16)}`;

export class Revert extends Error {
  readonly reason: string;
  readonly frames: Array<{ address: bigint; selector: bigint }> = [];
  constructor(reason: string) {
    super(reason);
    this.name = 'Revert';
    this.reason = reason;
  }
}

/** Exactly `count` calldata felts, else the revert Cairo gives a call it cannot deserialize. */
export function expectArgs(calldata: readonly bigint[], count: number): void {
  if (calldata.length !== count)
    throw new Revert(`Failed to deserialize param #${Math.min(calldata.length, count) + 1}`);
}

/** The u256 (low, high) at `index`, else the revert Cairo gives a call it cannot deserialize. */
export function u256At(calldata: readonly bigint[], index: number): bigint {
  const value = fromU256(calldata[index] ?? -1n, calldata[index + 1] ?? -1n);
  if (value === undefined) throw new Revert(`Failed to deserialize param #${index + 1}`);
  return value;
}

/** A call to an entry point the contract does not have (starknet_call answers 21 when it is the called contract's). */
export class EntryPointNotFound extends Revert {
  constructor(selector: bigint) {
    super(`Entry point ${hex(selector)} not found in contract.`);
    this.name = 'EntryPointNotFound';
  }
}

interface EmittedEvent {
  order: number;
  keys: bigint[];
  data: bigint[];
}

export interface Invocation {
  contractAddress: bigint;
  selector: bigint;
  calldata: bigint[];
  caller: bigint;
  classHash: bigint;
  result: bigint[];
  calls: Invocation[];
  events: EmittedEvent[];
}

export interface CallContext {
  /** the contract being called */
  readonly self: bigint;
  readonly caller: bigint;
  readonly state: StateView;
  emit(keys: bigint[], data: bigint[]): void;
  /** a nested call from `self`; its failure propagates as a Revert */
  call(to: bigint, selector: bigint, calldata: bigint[]): bigint[];
}

export interface Contract {
  readonly classHash: bigint;
  invoke(ctx: CallContext, selector: bigint, calldata: readonly bigint[]): bigint[];
}

export interface ContractResolver {
  resolve(address: bigint, state: StateView): Contract | undefined;
}

/** Bounds the work one transaction can cause: nested calls and events. */
const MAX_CALL_DEPTH = 16;
const MAX_INVOCATIONS = 2_000;

export class Executor {
  readonly state: StateView;
  readonly #contracts: ContractResolver;
  #order = 0;
  #invocations = 0;

  constructor(state: StateView, contracts: ContractResolver) {
    this.state = state;
    this.#contracts = contracts;
  }

  invoke(
    caller: bigint,
    to: bigint,
    selector: bigint,
    calldata: readonly bigint[],
    depth = 0,
  ): Invocation {
    this.#invocations += 1;
    if (depth > MAX_CALL_DEPTH || this.#invocations > MAX_INVOCATIONS)
      throw new Revert('too many nested calls');
    const contract = this.#contracts.resolve(to, this.state);
    if (contract === undefined) {
      const error = new Revert(`Requested contract address ${hex(to)} is not deployed.`);
      error.frames.push({ address: to, selector });
      throw error;
    }
    const node: Invocation = {
      contractAddress: to,
      selector,
      calldata: [...calldata],
      caller,
      classHash: contract.classHash,
      result: [],
      calls: [],
      events: [],
    };
    const ctx: CallContext = {
      self: to,
      caller,
      state: this.state,
      emit: (keys, data) => {
        node.events.push({ order: this.#order, keys, data });
        this.#order += 1;
      },
      call: (target, entry, args) => {
        const child = this.invoke(to, target, entry, args, depth + 1);
        node.calls.push(child);
        return child.result;
      },
    };
    try {
      node.result = contract.invoke(ctx, selector, calldata);
    } catch (error) {
      if (error instanceof Revert) {
        // each level catches once: callers end up in front of the contracts they called
        error.frames.unshift({ address: to, selector });
        throw error;
      }
      if (error instanceof RangeError) {
        const revert = new Revert(error.message);
        revert.frames.push({ address: to, selector });
        throw revert;
      }
      throw error;
    }
    return node;
  }
}

/** Every event of an invocation tree in emission order, with its emitter. */
export function flattenEvents(root: Invocation): Array<{ from: bigint; event: EmittedEvent }> {
  const out: Array<{ from: bigint; event: EmittedEvent }> = [];
  const pending: Invocation[] = [root];
  while (pending.length > 0) {
    const node = pending.pop() as Invocation;
    for (const event of node.events) out.push({ from: node.contractAddress, event });
    for (let i = node.calls.length - 1; i >= 0; i -= 1) pending.push(node.calls[i] as Invocation);
  }
  return out.sort((a, b) => a.event.order - b.event.order);
}

/** A Starknet-worded revert reason: one line per contract the failure passed through. */
export function revertReason(error: Revert): string {
  const lines = ['Transaction execution has failed:'];
  error.frames.forEach((frame, depth) => {
    lines.push(
      `${depth}: Error in the called contract (contract address: ${hex(frame.address)}, selector: ${hex(frame.selector)}):`,
    );
  });
  lines.push(`Execution failed. Failure reason: '${error.reason}'.`);
  return lines.join('\n');
}
