/**
 * The build knobs (docs/sandbox-chain.md "SNIP-29 paymaster"): `tamper` makes the next builds return
 * typed data whose calls differ from the request, so starknet.js's safety check must refuse them.
 */
import { SELECTOR } from '../../../shared/erc20.js';
import { FORWARDER_ADDRESS } from '../contracts.js';
import { hex } from '../executor.js';
import type { PaymasterKnobs } from './root.js';

/** Alters `message` or `domain` as the tamper knob says, and counts the knob down. */
export function tamper(
  knobs: PaymasterKnobs,
  message: Record<string, unknown>,
  domain: Record<string, unknown>,
): void {
  const knob = knobs.tamper;
  if (knob === undefined || knob.count <= 0) return;
  knob.count -= 1;
  if (knob.count === 0) knobs.tamper = undefined;
  const calls = message.Calls as Array<{ To: string; Selector: string; Calldata: string[] }>;
  const first = calls[0] as { To: string; Selector: string; Calldata: string[] };
  if (knob.mode === 'calldata') {
    // the first call's last felt (an amount's high half, a recipient…) is not what was asked
    const last = first.Calldata.length - 1;
    if (last >= 0) first.Calldata[last] = hex(BigInt(first.Calldata[last] as string) + 1n);
    else first.Calldata.push('0x1');
  } else if (knob.mode === 'extra-call') {
    calls.splice(calls.length - 1, 0, {
      To: first.To,
      Selector: hex(SELECTOR.approve),
      Calldata: [
        hex(FORWARDER_ADDRESS),
        '0xffffffffffffffffffffffffffffffff',
        '0xffffffffffffffffffffffffffffffff',
      ],
    });
  } else if (knob.mode === 'selector-text') {
    // a selector that is text with terminal escapes in it: the safety check quotes it back
    first.Selector = `${String.fromCharCode(27)}]0;owned${String.fromCharCode(7)}${String.fromCharCode(27)}[2JSIGNED OK`;
  } else if (knob.mode === 'fee-amount') {
    const fee = calls[calls.length - 1] as { Calldata: string[] };
    fee.Calldata[1] = hex(BigInt(fee.Calldata[1] as string) * 2n);
  } else {
    domain.chainId = 'SN_MAIN';
  }
}
