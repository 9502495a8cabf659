import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLines } from '../../../src/middleware/receipts/read-lines.js';
import { tempDir } from '../../support/temp-dir.js';

describe('readLines', () => {
  it('visits whole lines across chunk boundaries, multi-byte characters intact, and reports a torn tail', () => {
    const path = join(tempDir('read-lines-'), 'log.jsonl');
    const long = '€'.repeat(700_000); // 2.1 MB: spans chunks, with characters cut between them
    writeFileSync(path, `a\n${long}\nb\nc`);
    const seen: string[] = [];
    const read = readLines(path, (line) => seen.push(line) > 0);
    expect(seen).toEqual(['a', long, 'b']);
    expect(read.incompleteTail).toBe(true);
  });

  it('stops when the visitor returns false', () => {
    const path = join(tempDir('read-lines-'), 'log.jsonl');
    writeFileSync(path, 'a\nb\nc\n');
    const seen: string[] = [];
    expect(readLines(path, (line) => seen.push(line) < 2)).toEqual({ incompleteTail: false });
    expect(seen).toEqual(['a', 'b']);
  });
});
