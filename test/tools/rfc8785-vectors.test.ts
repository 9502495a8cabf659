import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/tools/canonical-json.js';

/** RFC 8785's test vectors, from cyberphone/json-canonicalization (see SOURCE.md beside them). */
const VECTORS = fileURLToPath(new URL('../fixtures/rfc8785/', import.meta.url));

const names = readdirSync(`${VECTORS}input`).map((file) => file.replace(/\.json$/, ''));

describe('canonicalJson against the RFC 8785 test vectors', () => {
  it('has the vectors', () => {
    expect(names).toEqual(['arrays', 'french', 'structures', 'unicode', 'values', 'weird']);
  });

  for (const name of names) {
    it(`canonicalises ${name}.json as published, byte for byte`, () => {
      const input: unknown = JSON.parse(readFileSync(`${VECTORS}input/${name}.json`, 'utf8'));
      const bytes = Buffer.from(canonicalJson(input), 'utf8');
      expect(bytes.toString('utf8')).toBe(readFileSync(`${VECTORS}output/${name}.json`, 'utf8'));
      const hex = readFileSync(`${VECTORS}outhex/${name}.txt`, 'utf8').replace(/\s+/g, '');
      expect(bytes.toString('hex')).toBe(hex);
    });
  }
});

/**
 * The ES6 number test file's lines (`<IEEE-754 bits as hex>,<the number as RFC 8785 writes it>`),
 * generated as testdata/README.md ("ES6 Numbers") describes: its edge-case values, 2,000 serial
 * values from the smallest normal double up, then doubles read from a chain of SHA-256 blocks
 * (zeros and non-finite values skipped).
 */
function* numberTestLines(): Generator<string> {
  const staticValues = readFileSync(`${VECTORS}es6-numbers-static.txt`, 'utf8').trim().split('\n');
  const bits = new BigUint64Array(1);
  const double = new Float64Array(bits.buffer);
  const line = () => `${bits[0]!.toString(16)},${canonicalJson(double[0])}\n`;
  for (const hex of staticValues) {
    bits[0] = BigInt(`0x${hex}`);
    yield line();
  }
  for (let index = 0n; index < 2000n; index += 1n) {
    bits[0] = 0x0010000000000000n + index;
    yield line();
  }
  let block = new Uint8Array(32);
  let drawn: number[] = [];
  for (;;) {
    let value = 0;
    while (value === 0 || !Number.isFinite(value)) {
      if (drawn.length === 0) {
        block = new Uint8Array(createHash('sha256').update(block).digest());
        drawn = [...new Float64Array(block.buffer)];
      }
      value = drawn.shift()!;
    }
    double[0] = value;
    yield line();
  }
}

describe('canonicalJson against the RFC 8785 ES6 number test data', () => {
  it('writes the first 10,000 numbers of the test file to its published SHA-256', () => {
    const sum = createHash('sha256');
    let count = 0;
    for (const line of numberTestLines()) {
      sum.update(line);
      count += 1;
      if (count === 10_000) break;
    }
    // testdata/README.md's table: 10000 lines, 399022 bytes.
    expect(sum.digest('hex')).toBe(
      'b9f7a8e75ef22a835685a52ccba7f7d6bdc99e34b010992cbc5864cd12be6892',
    );
  });

  it('writes the README sample lines', () => {
    const samples = [
      ['4340000000000001', '9007199254740994'],
      ['4340000000000002', '9007199254740996'],
      ['444b1ae4d6e2ef50', '1e+21'],
      ['3eb0c6f7a0b5ed8d', '0.000001'],
      ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
      ['8000000000000000', '0'],
      ['0', '0'],
    ];
    for (const [hex, expected] of samples) {
      const number = Buffer.from(hex!.padStart(16, '0'), 'hex').readDoubleBE();
      expect(canonicalJson(number)).toBe(expected);
      expect(canonicalJson({ n: [number] })).toBe(`{"n":[${expected}]}`);
    }
  });
});
