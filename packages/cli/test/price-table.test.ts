import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { batchCommand } from '../src/batch-command.js';
import { PriceTableError } from '../src/errors.js';
import { EXIT } from '../src/exit-codes.js';
import { loadPrices } from '../src/price-table.js';
import { exitCodeOf } from '../src/report-error.js';
import { captureIo } from './cli-io.js';

function priceFile(text: string): string {
  const file = join(tempDir('switchyard-prices-'), 'prices.json');
  writeFileSync(file, text);
  return file;
}

function problemOf(text: string): unknown {
  try {
    loadPrices({ file: priceFile(text) });
  } catch (error) {
    return PriceTableError.isInstance(error)
      ? { problem: error.problem, message: error.message }
      : error;
  }
  return 'no error';
}

describe('a --prices file', () => {
  it('gives model and per-call prices; --price-in / --price-out override its model prices', () => {
    const file = priceFile(
      '{"model":{"inputPerMillion":3,"outputPerMillion":15},"tools":{"summarize":{"perCall":0.01}}}',
    );
    expect(loadPrices({ file })).toEqual({
      model: { inputPerMillion: 3, outputPerMillion: 15 },
      perCall: { summarize: 0.01 },
    });
    expect(loadPrices({ file, outputPerMillion: 10 })).toEqual({
      model: { inputPerMillion: 3, outputPerMillion: 10 },
      perCall: { summarize: 0.01 },
    });
    expect(loadPrices({ file: priceFile('{"tools":{"a":{"perCall":0}}}') })).toEqual({
      perCall: { a: 0 },
    });
    expect(loadPrices({ inputPerMillion: 2 })).toEqual({
      model: { inputPerMillion: 2, outputPerMillion: 0 },
      perCall: {},
    });
    expect(loadPrices({})).toEqual({ perCall: {} });
  });

  it('is refused, naming the key, when a key is unknown, a price negative or not a number, or an entry not an object', () => {
    expect(problemOf('{"model":{"inputPerMilion":3}}')).toMatchObject({
      problem: 'unknown_key',
      message: expect.stringContaining('unknown key in model: "inputPerMilion"'),
    });
    expect(problemOf('{"modle":{}}')).toMatchObject({ problem: 'unknown_key' });
    expect(problemOf('{"tools":{"a":{"perCall":1,"perUnit":2}}}')).toMatchObject({
      problem: 'unknown_key',
      message: expect.stringContaining('tools.a'),
    });
    expect(problemOf('{"tools":{"a":{"perCall":-1}}}')).toMatchObject({
      problem: 'bad_price',
      message: expect.stringContaining('tools.a.perCall must be a number ≥ 0; got -1'),
    });
    expect(problemOf('{"model":{"outputPerMillion":"15"}}')).toMatchObject({
      problem: 'bad_price',
      message: expect.stringContaining('model.outputPerMillion'),
    });
    expect(problemOf('{"tools":{"a":{}}}')).toMatchObject({ problem: 'bad_price' });
    expect(problemOf('{"tools":[1]}')).toMatchObject({
      problem: 'bad_shape',
      message: expect.stringContaining('tools must be an object'),
    });
    expect(problemOf('{"tools":{"a":0.5}}')).toMatchObject({ problem: 'bad_shape' });
    expect(problemOf('[]')).toMatchObject({ problem: 'bad_shape' });
    expect(problemOf('{"model": {')).toMatchObject({
      problem: 'not_json',
      message: expect.stringContaining('not valid JSON'),
    });
  });

  it('stops the batch before any task runs: exit 2 for a bad file, 3 for a missing one', async () => {
    const tasks = priceFile('{"id":"a","task":"add 1 and 2"}\n');
    const run = async (prices: string) => {
      const capture = captureIo();
      const error = await batchCommand(
        [tasks, '--prices', prices, '--no-workers', '--quiet'],
        capture.io,
      ).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(capture.out()).toBe('');
      return exitCodeOf(error, new PassThrough());
    };
    expect(await run(priceFile('{"tools":{"a":{"perCall":-1}}}'))).toBe(EXIT.usage);
    expect(await run(priceFile('not json'))).toBe(EXIT.usage);
    expect(await run(join(tempDir('switchyard-prices-'), 'missing.json'))).toBe(EXIT.input);
  });
});
