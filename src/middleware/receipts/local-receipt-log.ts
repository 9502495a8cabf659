import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createJsonlWriter, type JsonlWriter } from '../../actors/jsonl-writer.js';
import { chainLine, chainReceipt, GENESIS_HASH } from './receipt-chain.js';
import type { ChainedReceipt, ToolCallReceipt } from './tool-call-receipt.js';

/** The hash of the last whole receipt line of a file (the genesis hash when there is none). */
function lastHashIn(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return GENESIS_HASH;
    const window = Buffer.alloc(Math.min(size, 1 << 20));
    readSync(fd, window, 0, window.length, size - window.length);
    const lines = window.toString('utf8').trimEnd().split('\n');
    const last = lines.at(-1);
    const hash =
      last === undefined ? undefined : (JSON.parse(last) as Partial<ChainedReceipt>).hash;
    return typeof hash === 'string' ? hash : GENESIS_HASH;
  } finally {
    closeSync(fd);
  }
}

/** An append-only, hash-chained receipt log (one JSONL file per session). */
export class LocalReceiptLog {
  readonly path: string;
  readonly uri: string;
  private readonly writer: JsonlWriter;
  /** Hash of the last receipt handed to the writer: appends are chained in the order they are made. */
  private lastHash: string;

  constructor(path: string) {
    this.path = resolve(path);
    this.uri = pathToFileURL(this.path).href;
    this.writer = createJsonlWriter(this.path);
    this.lastHash = lastHashIn(this.path);
  }

  /** Chains and appends a receipt; resolves with it, chained, once it is written. */
  append(receipt: ToolCallReceipt): Promise<ChainedReceipt> {
    const chained = chainReceipt(receipt, this.lastHash);
    this.lastHash = chained.receipt.hash;
    return this.writer.appendLine(chained.line).then(() => chained.receipt);
  }

  /**
   * Chains and appends a receipt like `append`, for callers that do not need the chained copy
   * (the audit layer): resolves once it is written.
   */
  record(receipt: ToolCallReceipt): Promise<void> {
    const { hash, line } = chainLine(receipt, this.lastHash);
    this.lastHash = hash;
    return this.writer.appendLine(line);
  }

  close(): Promise<void> {
    return this.writer.close();
  }
}

/** The log file of a session under `directory` (`/` and `\` in the id become `_`). */
export function receiptLogPath(directory: string, sessionId: string): string {
  const safe = (sessionId === '' ? 'session' : sessionId).replace(/[/\\]/g, '_');
  return join(directory, `${safe}.jsonl`);
}
