import { canonicalHash } from '../../tools/canonical-json.js';
import type { ChainedReceipt, ToolCallReceipt } from './tool-call-receipt.js';

/** The `prev_hash` of the first receipt of a log. */
export const GENESIS_HASH = '0'.repeat(64);

/** The hash of a chained receipt: SHA-256 of its canonical JSON without the `hash` field. */
export function receiptHash(receipt: Omit<ChainedReceipt, 'hash'>): string {
  return canonicalHash(receipt);
}

/** Links a receipt to the one before it in its log. */
export function chainReceipt(receipt: ToolCallReceipt, prevHash: string): ChainedReceipt {
  const linked = { ...receipt, prev_hash: prevHash };
  return { ...linked, hash: receiptHash(linked) };
}
