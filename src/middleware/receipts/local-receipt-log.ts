import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createJsonlWriter, type JsonlWriter } from '../../actors/jsonl-writer.js';
import { InvalidArgumentError } from '../../errors.js';
import { lastReceiptHash } from './last-receipt-hash.js';
import { receiptBody } from './receipt-body.js';
import { ReceiptLineEncoder } from './receipt-line-encoder.js';
import { receiptLogVersion } from './receipt-log-version.js';
import {
  type ChainedReceipt,
  RECEIPT_SCHEMA_VERSION,
  type ReceiptSchemaVersion,
  type ToolCallReceipt,
} from './tool-call-receipt.js';

/**
 * An append-only, hash-chained receipt log (one JSONL file per session). Receipts are chained
 * in the order they are appended, at once; their lines are written by a single-writer actor, the
 * lines of one turn of the event loop together, or of several while a write is in flight (see
 * `createJsonlWriter`).
 *
 * A write that fails ends the log: later receipts are refused, so the file stays a whole chain
 * up to its last line instead of linking past lines that never reached it, and `close()` rejects
 * with the failure so that it is never silent.
 */
export class LocalReceiptLog {
  readonly path: string;
  readonly uri: string;
  /** The schema version of the log's receipts (that of its first); undefined while it is empty. */
  private version: ReceiptSchemaVersion | undefined;
  private readonly writer: JsonlWriter;
  private readonly encoder = new ReceiptLineEncoder();
  /** Hash of the last receipt handed to the writer: appends are chained in the order they are made. */
  private lastHash: string;
  /** The write of the latest group of lines (one per turn), watched for failure once. */
  private lastWrite: Promise<void> | undefined;
  /** The first write failure; set, the log takes no more receipts. */
  private failure: { readonly error: unknown } | undefined;
  /** Bytes handed to the writer and not yet written (characters, for ASCII lines). */
  private pendingChars = 0;
  /** The bytes of the group of lines being collected (one per turn of the event loop). */
  private group: { chars: number } | undefined;
  private readonly maxPendingChars: number;

  /**
   * Opens (or creates) the log; throws when it cannot, leaving no file open. Past
   * `maxPendingChars` of unwritten lines, `backlogged` turns true. Default 8 Mi.
   *
   * @throws InvalidArgumentError when the log was started with a receipt schema version this one
   * cannot continue; the file system's error when it cannot be opened or read.
   */
  constructor(path: string, maxPendingChars = 8 * 1024 * 1024) {
    this.path = resolve(path);
    this.uri = pathToFileURL(this.path).href;
    this.maxPendingChars = maxPendingChars;
    this.writer = createJsonlWriter(this.path);
    try {
      this.lastHash = lastReceiptHash(this.path);
      this.version = receiptLogVersion(this.path);
    } catch (error) {
      void this.writer.close().catch(() => {});
      throw error;
    }
  }

  /**
   * The schema version receipts appended must have (`buildReceipt`'s `schemaVersion`): that of
   * the log's first receipt, which all of its receipts keep so that their hashes are computed
   * the same way; `RECEIPT_SCHEMA_VERSION` for a new log.
   */
  get schemaVersion(): ReceiptSchemaVersion {
    return this.version ?? RECEIPT_SCHEMA_VERSION;
  }

  /** More unwritten text than the bound: callers should wait for their writes (backpressure). */
  get backlogged(): boolean {
    return this.pendingChars > this.maxPendingChars;
  }

  /**
   * Chains and appends a receipt; resolves with it, chained, once it is written. Rejects with an
   * `InvalidArgumentError` for a receipt of another schema version than the log's.
   */
  append(receipt: ToolCallReceipt): Promise<ChainedReceipt> {
    if (this.failure !== undefined) return Promise.reject(this.failure.error);
    try {
      this.keepVersion(receipt);
    } catch (error) {
      return Promise.reject(error);
    }
    const prevHash = this.lastHash;
    const hash = this.encoder.encode(JSON.stringify(receipt), prevHash);
    this.lastHash = hash;
    // Not `{ ...receipt, prev_hash, hash }`: on Node 20 properties a spread copy does not have yet
    // are added through slow runtime calls (~1 µs here); Object.assign's copy adds them at speed.
    const chained: ChainedReceipt = Object.assign({}, receipt, { prev_hash: prevHash, hash });
    return this.write(this.encoder.line).then(() => chained);
  }

  /**
   * Chains and appends a receipt like `append`, for callers that do not need the chained copy
   * (the audit layer); the promise resolves once it is written, and need not be awaited: a
   * failure is also kept by the log. Throws at once, without chaining, once a write has failed.
   * An audit JSON cannot write is written as `receiptBody` says. Throws an
   * `InvalidArgumentError` for a receipt of another schema version than the log's.
   */
  record(receipt: ToolCallReceipt): Promise<void> {
    if (this.failure !== undefined) throw this.failure.error;
    this.keepVersion(receipt);
    this.lastHash = this.encoder.encode(receiptBody(receipt), this.lastHash);
    return this.write(this.encoder.line);
  }

  /**
   * Resolves once every receipt recorded so far is in the file (the log stays open); rejects
   * with the first write failure, if any.
   */
  async flush(): Promise<void> {
    await this.lastWrite?.then(undefined, () => {});
    if (this.failure !== undefined) throw this.failure.error;
  }

  /** Writes what is pending and closes the file; rejects with the first write failure, if any. */
  async close(): Promise<void> {
    await this.writer.close();
    // Settled in order: once the last group is, the failure of any group has been kept.
    await this.lastWrite?.then(undefined, () => {});
    if (this.failure !== undefined) throw this.failure.error;
  }

  /** A log's receipts all have the version of its first, so that they all hash the same way. */
  private keepVersion(receipt: ToolCallReceipt): void {
    if (receipt.schema_version === this.version) return;
    if (this.version !== undefined) {
      throw new InvalidArgumentError(
        'receipt',
        `${this.path} holds receipts of schema version ${this.version}; a receipt of version ${receipt.schema_version} cannot continue it`,
      );
    }
    this.version = receipt.schema_version;
  }

  private write(line: Uint8Array): Promise<void> {
    const written = this.writer.appendBytes(line);
    this.pendingChars += line.length;
    if (written !== this.lastWrite) {
      // One watcher per group: it keeps the failure, releases the group's share of the backlog,
      // and leaves no rejection unhandled for callers that do not wait for their write.
      this.lastWrite = written;
      const group = { chars: 0 };
      this.group = group;
      written.then(
        () => {
          this.pendingChars -= group.chars;
        },
        (error: unknown) => {
          this.pendingChars -= group.chars;
          this.failure ??= { error };
        },
      );
    }
    this.group!.chars += line.length;
    return written;
  }
}

/** The log file of a session under `directory` (`/` and `\` in the id become `_`). */
export function receiptLogPath(directory: string, sessionId: string): string {
  const safe = (sessionId === '' ? 'session' : sessionId).replace(/[/\\]/g, '_');
  return join(directory, `${safe}.jsonl`);
}
