import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const CHUNK_BYTES = 1 << 20;

/** What `readLines` saw of a file. */
export interface LinesRead {
  /** The file ends in a line without its newline (a write cut off by a crash). */
  readonly incompleteTail: boolean;
}

/**
 * Calls `visit` with each whole line of a file (without its newline), in order, until it returns
 * false. Reads a chunk at a time, so a file of any size works (a whole-file string tops out at
 * 512 MiB); a line is decoded only once whole, so characters split across chunks stay intact.
 * The text after the last newline is not visited.
 */
export function readLines(path: string, visit: (line: string) => boolean): LinesRead {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const last = Buffer.alloc(1);
    if (size > 0) readSync(fd, last, 0, 1, size - 1);
    const incompleteTail = size > 0 && last[0] !== 0x0a;
    const chunk = Buffer.alloc(CHUNK_BYTES);
    /** Bytes of a line begun in an earlier chunk. */
    let carry: Buffer[] = [];
    for (let position = 0; position < size; ) {
      const read = readSync(fd, chunk, 0, CHUNK_BYTES, position);
      if (read === 0) break;
      position += read;
      const bytes = chunk.subarray(0, read);
      let start = 0;
      for (let end = bytes.indexOf(0x0a); end !== -1; end = bytes.indexOf(0x0a, start)) {
        const piece = bytes.subarray(start, end);
        const line = (carry.length === 0 ? piece : Buffer.concat([...carry, piece])).toString(
          'utf8',
        );
        carry = [];
        start = end + 1;
        if (!visit(line)) return { incompleteTail };
      }
      // Copied: the chunk's buffer is read into again.
      if (start < read) carry.push(Buffer.from(bytes.subarray(start)));
    }
    return { incompleteTail };
  } finally {
    closeSync(fd);
  }
}
