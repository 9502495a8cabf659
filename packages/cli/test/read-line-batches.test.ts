import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter, readLineBatches } from '../src/read-line-batches.js';

/** The lines `readline` finds in `text` with `crlfDelay: Infinity` (the reference). */
async function readlineLines(chunks: readonly string[]): Promise<string[]> {
  const lines: string[] = [];
  const reader = createInterface({
    input: Readable.from(chunks),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  reader.on('line', (line) => lines.push(line));
  await once(reader, 'close');
  return lines;
}

function split(chunks: readonly string[], maxLineChars?: number): string[] {
  const splitter = new LineSplitter(maxLineChars);
  const lines: string[] = [];
  for (const chunk of chunks) splitter.push(chunk, lines);
  splitter.end(lines);
  return lines;
}

/** `text` cut at the given (sorted, deduplicated) offsets. */
function cut(text: string, offsets: readonly number[]): string[] {
  const points = [...new Set(offsets.map((offset) => offset % (text.length + 1)))].sort(
    (a, b) => a - b,
  );
  const chunks: string[] = [];
  let start = 0;
  for (const point of points) {
    chunks.push(text.slice(start, point));
    start = point;
  }
  chunks.push(text.slice(start));
  return chunks.filter((chunk) => chunk !== '');
}

describe('LineSplitter', () => {
  it('ends lines at \\n, \\r\\n and a lone \\r, as readline does', async () => {
    const text = 'a\nb\r\nc\rd\r\r\ne\n\nf';
    expect(split([text])).toEqual(await readlineLines([text]));
    expect(split([text])).toEqual(['a', 'b', 'c', 'd', '', 'e', '', 'f']);
  });

  it('finds the same lines as readline however the text is cut into chunks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: fc.constantFrom('a', 'é', '[', '\n', '\r', ' ') }),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (text, offsets) => {
          const chunks = cut(text, offsets);
          expect(split(chunks)).toEqual(await readlineLines(chunks));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('cuts a line past its limit to limit + 1 characters and keeps the lines after it', async () => {
    expect(split(['ab', 'cdefgh', 'ij\nkl\n', 'mnopqrstuv'], 4)).toEqual(['abcde', 'kl', 'mnopq']);
    expect(split(['abcdefgh\r\nxy'], 4)).toEqual(['abcde', 'xy']);
    // Lines past the limit cut, the others as readline finds them, however the text is cut; the
    // limit counts from the last \n, so the text here has no lone \r.
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: fc.constantFrom('a', 'é', '[', '\n', '\r\n', ' ') }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.integer({ min: 1, max: 12 }),
        async (text, offsets, limit) => {
          const chunks = cut(text, offsets);
          const expected = (await readlineLines(chunks)).map((line) =>
            line.length > limit ? line.slice(0, limit + 1) : line,
          );
          expect(split(chunks, limit)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('readLineBatches', () => {
  it('decodes a character whose bytes arrive in two chunks', async () => {
    const bytes = Buffer.from('{"a":"é"}\n[]\n');
    const input = Readable.from([bytes.subarray(0, 7), bytes.subarray(7)]);
    const lines: string[] = [];
    for await (const batch of readLineBatches('-', input)) lines.push(...batch);
    expect(lines).toEqual(['{"a":"é"}', '[]']);
  });
});
