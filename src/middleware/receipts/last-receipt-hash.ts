import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { GENESIS_HASH } from './receipt-chain.js';
import type { ChainedReceipt } from './tool-call-receipt.js';

/** Every receipt line ends with its hash: `,"hash":"<64 hex>"}`. */
const HASH_AT_END = /"hash":"([0-9a-f]{64})"\}\s*$/;
const TAIL_BYTES = 256;
const CHUNK_BYTES = 64 * 1024;

/**
 * The hash of the last receipt line of a file (the genesis hash when there is none). Reads only
 * the end of the line, whatever its size: a receipt's own line ends with its hash. A last line of
 * another shape is read whole, scanning back for its start a chunk at a time.
 */
export function lastReceiptHash(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return GENESIS_HASH;
    const tail = Buffer.alloc(Math.min(size, TAIL_BYTES));
    readSync(fd, tail, 0, tail.length, size - tail.length);
    const match = HASH_AT_END.exec(tail.toString('latin1'));
    if (match !== null) return match[1]!;
    const hash = (JSON.parse(lastLine(fd, size)) as Partial<ChainedReceipt>).hash;
    return typeof hash === 'string' ? hash : GENESIS_HASH;
  } finally {
    closeSync(fd);
  }
}

/** The text of the last line of a file (without its newline). */
function lastLine(fd: number, size: number): string {
  let end = size;
  const chunk = Buffer.alloc(CHUNK_BYTES);
  readSync(fd, chunk, 0, 1, end - 1);
  if (chunk[0] === 0x0a) end -= 1;
  let start = end;
  while (start > 0) {
    const from = Math.max(0, start - CHUNK_BYTES);
    const length = start - from;
    readSync(fd, chunk, 0, length, from);
    const newline = chunk.subarray(0, length).lastIndexOf(0x0a);
    if (newline !== -1) {
      start = from + newline + 1;
      break;
    }
    start = from;
  }
  const line = Buffer.alloc(end - start);
  readSync(fd, line, 0, line.length, start);
  return line.toString('utf8');
}
