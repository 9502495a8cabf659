import { hash } from 'node:crypto';

/** Bytes kept for the lines of ordinary receipts; a larger one gets a buffer of its own. */
const SCRATCH_BYTES = 16 * 1024;

/**
 * Lays out a receipt's chained line as UTF-8 bytes, hashing it on the way. The body is encoded
 * once, after the previous hash and a newline: those bytes are exactly the hash's input, and
 * the body's bytes, its closing brace replaced by the links, are the line. So a receipt costs
 * no joined copy of its text for the hash, and no string line to join and encode again for the
 * file. The bytes give the same hash and line as `receiptHash` and `chainLine`.
 */
export class ReceiptLineEncoder {
  private readonly scratch = Buffer.allocUnsafe(SCRATCH_BYTES);
  /** The line of the last `encode`, a view of the scratch buffer (or of its own). */
  line: Buffer = this.scratch.subarray(0, 0);

  /** Hashes `body` (a receipt's JSON text) after `prevHash`, sets `line`; returns the hash. */
  encode(body: string, prevHash: string): string {
    // At most 3 bytes per UTF-16 unit; the links hold the previous hash and the 64-hex hash.
    const most = 3 * (body.length + 2 * prevHash.length) + 128;
    const bytes = most <= SCRATCH_BYTES ? this.scratch : Buffer.allocUnsafe(most);
    const start = bytes.write(prevHash, 0) + 1;
    bytes[start - 1] = 0x0a;
    const bodyEnd = start + bytes.write(body, start);
    const digest = hash('sha256', bytes.subarray(0, bodyEnd), 'hex');
    // Over the body's closing brace.
    const end =
      bodyEnd - 1 + bytes.write(`,"prev_hash":"${prevHash}","hash":"${digest}"}`, bodyEnd - 1);
    this.line = bytes.subarray(start, end);
    return digest;
  }
}
