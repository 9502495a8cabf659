import type { FileHandle } from 'node:fs/promises';

/** Bytes read from a file, with what was left out. */
export interface BoundedBytes {
  readonly bytes: Buffer;
  /** Size of the whole file in bytes. */
  readonly size: number;
  /** True when the file continues past the bytes read. */
  readonly truncated: boolean;
}

/** Reads at most `length` bytes from `offset`. Throws a tool error for anything but a regular file. */
export async function readBounded(
  handle: FileHandle,
  offset: number,
  length: number,
  shownPath: string,
): Promise<BoundedBytes> {
  const info = await handle.stat();
  if (!info.isFile()) throw new Error(`not a regular file: ${shownPath}`);
  const start = Math.min(offset, info.size);
  const wanted = Math.max(0, Math.min(length, info.size - start));
  const bytes = Buffer.alloc(wanted);
  let filled = 0;
  while (filled < wanted) {
    const { bytesRead } = await handle.read(bytes, filled, wanted - filled, start + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return {
    bytes: bytes.subarray(0, filled),
    size: info.size,
    truncated: start + filled < info.size,
  };
}

/** True when the bytes look binary (a NUL in the first 8 KiB), as git and grep decide. */
export function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8192).includes(0);
}
