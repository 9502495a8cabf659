import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { InvalidArgumentError } from '../../errors.js';
import type { ReceiptSchemaVersion } from './tool-call-receipt.js';

/** Every receipt line begins with its version: `{"schema_version":<n>,`. */
const VERSION_AT_START = /^\{"schema_version":(\d{1,9})[,}]/;
const HEAD_BYTES = 32;

/**
 * The receipt schema version a log was started with, read from the start of its first line, which
 * the log's later receipts keep (their hashes must be computed the same way): undefined for an
 * empty file, 1 for a first line of another shape (written before the version could vary).
 *
 * @throws InvalidArgumentError when the log was started with a version this one cannot write.
 */
export function receiptLogVersion(path: string): ReceiptSchemaVersion | undefined {
  const fd = openSync(path, 'r');
  let head: string;
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return undefined;
    const bytes = Buffer.alloc(Math.min(size, HEAD_BYTES));
    readSync(fd, bytes, 0, bytes.length, 0);
    head = bytes.toString('latin1');
  } finally {
    closeSync(fd);
  }
  const match = VERSION_AT_START.exec(head);
  if (match === null) return 1;
  const version = Number(match[1]);
  if (version === 1 || version === 2) return version;
  throw new InvalidArgumentError(
    'path',
    `${path} was started with receipt schema version ${version}; this version of Switchyard writes versions 1 and 2 only, so it cannot continue the log`,
  );
}
