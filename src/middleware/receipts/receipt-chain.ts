import { sha256Hex } from '../../tools/canonical-json.js';
import type { ChainedReceipt, ToolCallReceipt } from './tool-call-receipt.js';

/** The `prev_hash` of the first receipt of a log. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * The hash of a receipt in its log: SHA-256 of the previous hash, a newline, and the receipt's JSON
 * text without `prev_hash` and `hash`. The text is hashed as written (JSON.parse then
 * JSON.stringify gives it back unchanged), so no canonical re-sorting is needed on either side.
 */
export function receiptHash(prevHash: string, body: string): string {
  return sha256Hex(`${prevHash}\n${body}`);
}

/** A receipt linked to the one before it, and the exact line that records it. */
export interface ChainedLine {
  readonly receipt: ChainedReceipt;
  /** The JSON line (no newline). */
  readonly line: string;
}

/** The hash of a receipt in its log and the exact line that records it (no newline). */
export function chainLine(
  receipt: ToolCallReceipt,
  prevHash: string,
): { readonly hash: string; readonly line: string } {
  const body = JSON.stringify(receipt);
  const hash = receiptHash(prevHash, body);
  return { hash, line: `${body.slice(0, -1)},"prev_hash":"${prevHash}","hash":"${hash}"}` };
}

/** Links a receipt to the one before it in its log. */
export function chainReceipt(receipt: ToolCallReceipt, prevHash: string): ChainedLine {
  const { hash, line } = chainLine(receipt, prevHash);
  // Not `{ ...receipt, prev_hash, hash }`: on Node 20 properties a spread copy does not have yet
  // are added through slow runtime calls (~1 µs here); Object.assign's copy adds them at speed.
  const chained: ChainedReceipt = Object.assign({}, receipt, { prev_hash: prevHash, hash });
  return { receipt: chained, line };
}
