import { createHash } from 'node:crypto';
import { join } from 'node:path';
import fc from 'fast-check';
import { createDispatcher, createToolRegistry, InvalidOptionError } from 'switchyard';
import { createWorkerPool } from 'switchyard/executors';
import { afterAll, describe, expect, it } from 'vitest';
import { evaluateArithmetic } from '../src/arithmetic.js';
import { queryJson } from '../src/json-query.js';
import { stdlibTools } from '../src/stdlib-tools.js';
import { callTool, denialOf, hostFixture } from './host-fixture.js';
import { renderTextImage } from './render-text-image.js';

const inline = stdlibTools({ workers: false });

describe('math_calc', () => {
  it.each([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['-2 ^ 2', -4],
    ['2 ** 3 ** 2', 512],
    ['2 ^ -1', 0.5],
    ['sqrt(16) + max(1, 5, 3)', 9],
    ['10 % 4', 2],
    ['round(pi * 100) / 100', 3.14],
    ['1.5e3 + .5', 1500.5],
  ])('evaluates %s', (expression, value) => {
    expect(evaluateArithmetic(expression)).toBeCloseTo(value, 10);
  });

  it.each([
    ['1 / 0', 'division by zero'],
    ['process.exit(1)', 'unexpected character at 7'],
    ['eval(1)', 'unknown name "eval"'],
    ['constructor', 'unknown name'],
    ['2 +', 'unexpected end'],
    ['(1', 'expected ")"'],
    ['1 1', 'unexpected "1"'],
    ['10 ^ 400', 'not a finite number'],
    [`${'('.repeat(200)}1${')'.repeat(200)}`, 'nested deeper'],
    ['-'.repeat(900), 'nested deeper'],
  ])('rejects %s as a tool error', async (expression, message) => {
    const result = await callTool(inline, 'math_calc', { expression });
    expect(result.errorCategory).toBe('tool_error');
    expect(result.error).toContain(message);
  });

  it('answers any string with a number or an Error, never anything else', () => {
    fc.assert(
      fc.property(
        fc.string({
          maxLength: 200,
          unit: fc.constantFrom(...'0123456789+-*/%^()., episqrtmax'.split('')),
        }),
        (expression) => {
          try {
            expect(typeof evaluateArithmetic(expression)).toBe('number');
          } catch (error) {
            expect(error).toBeInstanceOf(Error);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('regex_match, count_characters, json_query', () => {
  it('matches on a linear-time engine with positions and groups', async () => {
    const result = await callTool(inline, 'regex_match', {
      pattern: '(?<key>\\w+)=(\\d+)',
      text: 'a=1, b=22',
    });
    expect(result.result).toEqual({
      count: 2,
      truncated: false,
      matches: [
        { match: 'a=1', index: 0, groups: ['a', '1'], named: { key: 'a' } },
        { match: 'b=22', index: 5, groups: ['b', '22'], named: { key: 'b' } },
      ],
    });
    const started = performance.now();
    const redos = await callTool(inline, 'regex_match', {
      pattern: '^(a+)+$',
      text: `${'a'.repeat(100_000)}!`,
    });
    expect(redos.result).toMatchObject({ count: 0 });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('counts one character by code point', async () => {
    expect(
      (await callTool(inline, 'count_characters', { text: 'strawberry', char: 'r' })).result,
    ).toEqual({ char: 'r', count: 3 });
    expect(
      (await callTool(inline, 'count_characters', { text: 'a😀b😀', char: '😀' })).result,
    ).toEqual({ char: '😀', count: 2 });
    expect(
      (await callTool(inline, 'count_characters', { text: 'x', char: 'ab' })).errorCategory,
    ).toBe('tool_error');
  });

  it('queries JSON with own-property lookups only', async () => {
    const json = JSON.stringify({
      items: [{ name: 'a', tags: { name: 'inner' } }, { name: 'b' }],
      'odd key': 1,
    });
    const query = async (path: string) =>
      (await callTool(inline, 'json_query', { json, path })).result;
    expect(await query('$.items[*].name')).toEqual({ count: 2, values: ['a', 'b'] });
    expect(await query('$.items[-1]')).toEqual({ count: 1, values: [{ name: 'b' }] });
    expect(await query("$['odd key']")).toEqual({ count: 1, values: [1] });
    expect(await query('$..name')).toEqual({ count: 3, values: ['a', 'inner', 'b'] });
    expect(await query('$.items.constructor')).toEqual({ count: 0, values: [] });
    expect(queryJson({}, '$.__proto__')).toEqual([]);
    expect((await callTool(inline, 'json_query', { json: '{', path: '$' })).error).toContain(
      'not valid JSON',
    );
    expect((await callTool(inline, 'json_query', { json, path: 'items' })).error).toContain(
      'starts with "$"',
    );
  });

  it('walks a deeply nested document without recursion', () => {
    let deep: unknown = { name: 'bottom' };
    for (let depth = 0; depth < 100_000; depth += 1) deep = { next: deep };
    expect(queryJson(deep, '$..name')).toEqual(['bottom']);
  });
});

describe('sha256', () => {
  const expected = createHash('sha256').update('hello').digest('hex');
  const pool = createWorkerPool({ maxThreads: 1 });
  afterAll(() => pool.close());

  it('hashes on the worker pool', async () => {
    // From the sources, the sha256 tool names its digest module as TypeScript, which the pool's
    // threads load with tsx; built, as the .js beside it (the built CLI's runs check that).
    const tools = stdlibTools();
    const sha = tools.find((tool) => tool.name === 'sha256');
    expect(sha?.executor.kind).toBe('worker');
    const dispatcher = createDispatcher({
      registry: createToolRegistry(tools),
      executors: [pool.executor],
    });
    const result = await dispatcher.dispatch({
      id: 's',
      name: 'sha256',
      arguments: { text: 'hello' },
    });
    expect(result).toMatchObject({ executor: 'worker', result: { digest: expected, rounds: 1 } });
  });

  it('hashes inline when workers are off', async () => {
    const twice = createHash('sha256').update(expected).digest('hex');
    expect((await callTool(inline, 'sha256', { text: 'hello', rounds: 2 })).result).toEqual({
      digest: twice,
      rounds: 2,
    });
  });
});

describe('vision_ocr', () => {
  const { root } = hostFixture();
  const tools = stdlibTools({ workers: false, root });

  it('reads text from a rendered image as blocks, lines and tokens', async () => {
    renderTextImage(join(root, 'sign.pgm'), ['HELLO WORLD', 'ROLL 42']);
    const result = await callTool(tools, 'vision_ocr', { image: 'sign.pgm' });
    expect(result.ok).toBe(true);
    const value = result.result as {
      text: string;
      lines: { text: string }[];
      tokens: { text: string; confidence: number; box: { width: number } }[];
      backend: { name: string; language: string };
      stats: { tokens: number };
      source: { path: string };
    };
    expect(value.text).toBe('HELLO WORLD\nROLL 42');
    expect(value.lines.map((line) => line.text)).toEqual(['HELLO WORLD', 'ROLL 42']);
    expect(value.tokens.map((token) => token.text)).toEqual(['HELLO', 'WORLD', 'ROLL', '42']);
    expect(value.tokens[0]?.box.width).toBeGreaterThan(0);
    expect(value).toMatchObject({
      backend: { name: 'tesseract', language: 'eng' },
      stats: { tokens: 4 },
      source: { path: 'sign.pgm' },
    });
  });

  it('refuses an image outside the root and leaves the tool out without a root', async () => {
    expect(
      denialOf(await callTool(tools, 'vision_ocr', { image: 'secret-link.txt' })),
    ).toBeDefined();
    expect(inline.some((tool) => tool.name === 'vision_ocr')).toBe(false);
    expect(() => stdlibTools({ root, ocrTimeoutMs: 0 })).toThrow(InvalidOptionError);
  });
});
