import { readFileSync } from 'node:fs';
import { GENESIS_HASH, receiptHash } from './receipt-chain.js';
import type { ChainedReceipt } from './tool-call-receipt.js';

/** What `verifyReceipts` found. */
export interface ReceiptVerification {
  /** True when every whole line is intact and correctly chained. */
  readonly ok: boolean;
  /** Whole lines checked and found intact, from the top. */
  readonly verifiedLines: number;
  /** The first broken line (1-based) and why; absent when ok. */
  readonly firstBroken?: { readonly line: number; readonly reason: string };
  /** The file ends in a line cut off by a crash (not counted, not an error). */
  readonly incompleteTail: boolean;
  /** The hash of the last intact receipt (the genesis hash for an empty log). */
  readonly lastHash: string;
}

/**
 * Checks a receipt log: each line must parse, carry its own correct hash, and link to the line
 * before it. An edited line breaks its own hash; a deleted or reordered line breaks the link of
 * the next one. A last line torn by a crash is reported, not counted. (Removing lines from the
 * end of a log leaves a valid shorter chain: keep the last hash elsewhere to detect that.)
 */
export function verifyReceipts(path: string): ReceiptVerification {
  const text = readFileSync(path, 'utf8');
  const incompleteTail = text.length > 0 && !text.endsWith('\n');
  const lines = text.split('\n');
  lines.pop(); // the part after the last newline: empty, or the torn tail
  let previous = GENESIS_HASH;
  for (const [index, line] of lines.entries()) {
    const broken = (reason: string): ReceiptVerification => ({
      ok: false,
      verifiedLines: index,
      firstBroken: { line: index + 1, reason },
      incompleteTail,
      lastHash: previous,
    });
    let receipt: ChainedReceipt;
    try {
      receipt = JSON.parse(line) as ChainedReceipt;
    } catch {
      return broken('not valid JSON');
    }
    if (receipt.prev_hash !== previous) {
      return broken(
        'does not link to the line before it (a line was deleted, inserted or reordered)',
      );
    }
    const { hash, prev_hash: _link, ...rest } = receipt;
    if (receiptHash(previous, JSON.stringify(rest)) !== hash) {
      return broken('its content does not match its hash (the line was edited)');
    }
    previous = hash;
  }
  return { ok: true, verifiedLines: lines.length, incompleteTail, lastHash: previous };
}
