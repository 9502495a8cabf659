import { readLines } from './read-lines.js';
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
  /**
   * The receipt schema versions of the intact lines, each once, in the order they first appear:
   * one for a log written as Switchyard writes them (see `ToolCallReceipt.schema_version` for
   * how each version hashes arguments and results).
   */
  readonly schemaVersions: readonly number[];
}

/**
 * Checks a receipt log: each line must parse, carry its own correct hash, and link to the line
 * before it. An edited line breaks its own hash; a deleted or reordered line breaks the link of
 * the next one. A last line torn by a crash is reported, not counted. (Removing lines from the
 * end of a log leaves a valid shorter chain: keep the last hash elsewhere to detect that.) Reads
 * the file a chunk at a time: a log of any size verifies.
 */
export function verifyReceipts(path: string): ReceiptVerification {
  let previous = GENESIS_HASH;
  let verifiedLines = 0;
  let firstBroken: ReceiptVerification['firstBroken'];
  const schemaVersions: number[] = [];
  const { incompleteTail } = readLines(path, (line) => {
    const reason = brokenBecause(line, previous);
    if (typeof reason === 'string') {
      firstBroken = { line: verifiedLines + 1, reason };
      return false;
    }
    previous = reason.hash;
    verifiedLines += 1;
    if (!schemaVersions.includes(reason.schema_version)) schemaVersions.push(reason.schema_version);
    return true;
  });
  return firstBroken === undefined
    ? { ok: true, verifiedLines, incompleteTail, lastHash: previous, schemaVersions }
    : { ok: false, verifiedLines, firstBroken, incompleteTail, lastHash: previous, schemaVersions };
}

/** Why a line breaks the chain after `previous`, or the intact receipt. */
function brokenBecause(line: string, previous: string): string | ChainedReceipt {
  let receipt: ChainedReceipt;
  try {
    receipt = JSON.parse(line) as ChainedReceipt;
  } catch {
    return 'not valid JSON';
  }
  if (receipt.prev_hash !== previous) {
    return 'does not link to the line before it (a line was deleted, inserted or reordered)';
  }
  const { hash, prev_hash: _link, ...rest } = receipt;
  if (receiptHash(previous, JSON.stringify(rest)) !== hash) {
    return 'its content does not match its hash (the line was edited)';
  }
  return receipt;
}
