/**
 * The ArgentX v0.5.0 account address of a key as starknet.js computes it, written the way Privy's
 * recipe and starkzap's ArgentXV050Preset write it: the independent cross-check of
 * shared/starknet.ts's `argentAccountAddress` (and of what the client remembers of it).
 */
import { CairoCustomEnum, CairoOption, CairoOptionVariant, CallData, hash } from 'starknet';
import { ARGENT_X_V050_CLASS_HASH, padHash } from '../../shared/starknet.js';

export function addressViaStarknetJs(publicKey: string): string {
  const calldata = CallData.compile({
    owner: new CairoCustomEnum({ Starknet: { pubkey: publicKey } }),
    guardian: new CairoOption<unknown>(CairoOptionVariant.None),
  });
  return padHash(
    hash.calculateContractAddressFromHash(publicKey, ARGENT_X_V050_CLASS_HASH, calldata, 0),
  );
}
