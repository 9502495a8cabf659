import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedLineReader, type OversizedLine } from '../src/bounded-line-reader.js';
import { JsonRpcIdScanner } from '../src/json-rpc-id-scanner.js';

function scan(pieces: readonly string[]): string | number | null {
  const scanner = new JsonRpcIdScanner();
  for (const piece of pieces) scanner.push(Buffer.from(piece));
  return scanner.id;
}

/** The text cut at the given byte offsets. */
function split(text: string, cuts: readonly number[]): string[] {
  const bytes = Buffer.from(text);
  const offsets = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let start = 0;
  for (const offset of [...offsets, bytes.length]) {
    pieces.push(bytes.subarray(start, offset).toString('latin1'));
    start = offset;
  }
  return pieces;
}

const id = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const member = fc.tuple(
  fc.string({ maxLength: 8 }).filter((key) => key !== 'id'),
  fc.jsonValue({ maxDepth: 4 }),
);

describe('JsonRpcIdScanner', () => {
  it('finds the top-level id JSON.parse finds, however the text is cut', () => {
    fc.assert(
      fc.property(
        id,
        fc.array(member, { maxLength: 5 }),
        fc.nat(6),
        fc.array(fc.nat(), { maxLength: 6 }),
        (value, members, at, cuts) => {
          const entries = [...members];
          entries.splice(Math.min(at, entries.length), 0, ['id', value]);
          const text = JSON.stringify(Object.fromEntries(entries));
          const expected = (JSON.parse(text) as { id: string | number }).id;
          const scanner = new JsonRpcIdScanner();
          for (const piece of split(text, cuts)) scanner.push(Buffer.from(piece, 'latin1'));
          expect(scanner.id).toEqual(expected);
        },
      ),
    );
  });

  it('finds no id in nested objects, arrays, other types or text that is not an object', () => {
    expect(scan(['{"params":{"id":"inner"},"method":"x"}'])).toBe(null);
    expect(scan(['[{"id":1}]'])).toBe(null);
    expect(scan(['{"id":{"a":1}}'])).toBe(null);
    expect(scan(['{"id":true}'])).toBe(null);
    expect(scan(['{"id":"a\\"b"}'])).toBe('a"b');
    expect(scan(['{"i\\u0064":7}'])).toBe(7);
    expect(scan(['{"id":"', 'x'.repeat(1000), '"}'])).toBe(null);
  });
});

describe('BoundedLineReader', () => {
  it('keeps lines within the bound and reports a longer one with its id when it ends', () => {
    const lines: string[] = [];
    const oversized: OversizedLine[] = [];
    const reader = new BoundedLineReader({
      maxLineBytes: 16,
      onLine: (line) => lines.push(line.toString()),
      onOversized: (line) => oversized.push(line),
    });
    reader.push(Buffer.from('{"id":1}\n{"id":"long","pad":"'));
    reader.push(Buffer.from('x'.repeat(100)));
    expect(oversized).toEqual([]);
    reader.push(Buffer.from('"}\nshort\n'));
    expect(lines).toEqual(['{"id":1}', 'short']);
    expect(oversized).toEqual([{ id: 'long', bytes: 122 }]);
  });
});
