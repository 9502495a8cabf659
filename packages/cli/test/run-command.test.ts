import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyReceipts } from 'switchyard/receipts';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { UsageError } from '../src/errors.js';
import { EXIT } from '../src/exit-codes.js';
import { runCommand } from '../src/run-command.js';
import { captureIo } from './cli-io.js';

function batchFile(lines: string[]): string {
  const path = join(tempDir('switchyard-batch-'), 'batch.jsonl');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;

const lines = [
  '{"calls":[{"id":"a","name":"math_calc","arguments":"{\\"expression\\":\\"2+3\\"}"},{"id":"b","name":"count_characters","arguments":{"text":"banana","char":"a"}}]}',
  'not json',
  '[{"id":"c","name":"math_calc","arguments":{"expression":"1/0"}},{"id":"d","name":"nope","arguments":"{}"}]',
];

async function run(args: string[], stdin?: string) {
  const capture = captureIo({ stdin });
  const code = await runCommand([...args, '--no-workers', '--no-progress'], capture.io);
  return { code, out: capture.out(), err: capture.err() };
}

describe('switchyard run', () => {
  it('prints results in planner order on stdout, diagnostics with line numbers on stderr, exit 3 for an unreadable line', async () => {
    const { code, out, err } = await run([batchFile(lines)]);
    expect(code).toBe(EXIT.input);
    const resultLines = out.split('\n').filter((line) => line.startsWith('  #'));
    expect(resultLines.map((line) => line.split(' ')[3])).toEqual([
      'math_calc',
      'count_characters',
      'math_calc',
      'nope',
    ]);
    expect(out).toContain('calls      4: 2 ok, 2 failed (schema_validation 1, tool_error 1)');
    expect(out).not.toContain('not valid JSON');
    expect(err).toContain('switchyard run: line 2 is not valid JSON');
    expect(err).toMatch(/line 3: call c \(math_calc\) failed: tool_error: .*division by zero/);
    expect(err).toMatch(/line 3: call d \(nope\) failed: schema_validation/);
  });

  it('exits 1 when calls fail, 0 with --allow-failures, 0 when all succeed', async () => {
    const failing = batchFile([lines[2] as string]);
    expect((await run([failing])).code).toBe(EXIT.failures);
    expect((await run([failing, '--allow-failures'])).code).toBe(EXIT.ok);
    expect((await run([batchFile([lines[0] as string])])).code).toBe(EXIT.ok);
  });

  it('refuses [1,2,3]-style lines as unreadable, without dispatching anything', async () => {
    const { code, out, err } = await run([batchFile(['[1,2,3]', '[{"name":"add"}, 4]'])]);
    expect(code).toBe(EXIT.input);
    expect(err).toContain('line 1: call 1 is not an object');
    expect(err).toContain('line 2: call 2 is not an object');
    expect(out).toContain('calls      0');
  });

  it('writes one JSON object per result and a summary object with --json, in file order even with parallel turns', async () => {
    const { out } = await run([batchFile(lines), '--json', '--parallel-turns', '3']);
    const records = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(
      records.filter((record) => 'toolCallId' in record).map((record) => record.toolCallId),
    ).toEqual(['a', 'b', 'c', 'd']);
    expect(records.at(-1).summary).toMatchObject({ calls: 4, badLines: 1 });
    expect(records[0]).toMatchObject({
      line: 1,
      emitOrder: 0,
      toolName: 'math_calc',
      result: { expression: '2+3', value: 5 },
    });
  });

  it('reads standard input for -', async () => {
    const { code, out } = await run(['-', '--json'], `${lines[0]}\n`);
    expect(code).toBe(EXIT.ok);
    expect(out).toContain('"toolCallId":"a"');
  });

  it('exits 3 for a file it cannot open', async () => {
    await expect(run([join(tempDir('switchyard-missing-'), 'nope.jsonl')])).rejects.toMatchObject({
      code: 'SY_ERR_CLI_INPUT',
      message: expect.stringContaining('cannot read'),
    });
  });

  it('loads the user tools (.ts) and stack, and writes receipts with --audit', async () => {
    const audit = tempDir('switchyard-audit-');
    const file = batchFile([
      '[{"id":"s1","name":"shout","arguments":{"text":"hi"}},{"id":"s2","name":"math_calc","arguments":{"expression":"1+2"}}]',
    ]);
    const { code, out } = await run([
      file,
      '--json',
      '--tools',
      join(FIXTURES, 'shout-tools.ts'),
      '--stack',
      join(FIXTURES, 'tag-stack.mjs'),
      '--audit',
      audit,
      '--session',
      'fixture',
    ]);
    const records = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records[0]).toMatchObject({ toolName: 'shout', ok: true, result: 'HI!' });
    // The built-in tools are not loaded when --tools is given.
    expect(records[1]).toMatchObject({
      toolName: 'math_calc',
      ok: false,
      status: 'tool_not_found',
    });
    expect(code).toBe(EXIT.failures);
    expect(readdirSync(audit)).toEqual(['fixture.jsonl']);
    const verification = verifyReceipts(join(audit, 'fixture.jsonl'));
    expect(verification).toMatchObject({ ok: true, verifiedLines: 2 });
  });

  it('gives every call a hard time budget with --timeout-ms', async () => {
    const file = batchFile(['[{"id":"slow","name":"hold","arguments":{"ms":2000}}]']);
    const { code, out } = await run([
      file,
      '--json',
      '--timeout-ms',
      '20',
      '--tools',
      join(FIXTURES, 'gauge-tools.ts'),
    ]);
    expect(code).toBe(EXIT.failures);
    expect(JSON.parse(out.split('\n')[0] as string)).toMatchObject({
      toolCallId: 'slow',
      status: 'timeout',
    });
  });

  it('previews calls to tools that are not read-only with --dry-run, and runs the read-only ones', async () => {
    const file = batchFile([
      '[{"id":"w","name":"charge","arguments":{"task":"x"}},{"id":"r","name":"checkpoint","arguments":{"task":"x"}}]',
    ]);
    const ledger = join(tempDir('switchyard-dry-'), 'ledger.txt');
    process.env.LEDGER = ledger;
    try {
      const { out } = await run([
        file,
        '--json',
        '--dry-run',
        '--tools',
        join(FIXTURES, 'ledger-tools.ts'),
      ]);
      const [charge, checkpoint] = out
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(charge).toMatchObject({ toolCallId: 'w', status: 'dry_run' });
      expect(checkpoint).toMatchObject({ toolCallId: 'r', status: 'ok' });
      expect(readFileSync(ledger, 'utf8')).toBe('checkpoint x\n');
    } finally {
      delete process.env.LEDGER;
    }
  });

  it('refuses unknown options and bad numbers as usage errors, and prints its help for --help', async () => {
    await expect(run(['x.jsonl', '--frobnicate'])).rejects.toMatchObject({
      code: UsageError.CODE,
    });
    await expect(run(['x.jsonl', '--concurrency', '0'])).rejects.toThrow(/--concurrency/);
    const help = await run(['--help']);
    expect(help.code).toBe(EXIT.ok);
    expect(help.out).toMatch(/^Usage: switchyard run/);
    expect(help.out).toContain('--tools <module>');
  });

  it('reports a line of any depth as one diagnostic and goes on with the next lines', async () => {
    const depth = 10_000;
    const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const deepObject = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const { code, out, err } = await run([
      batchFile([
        nested,
        `{"calls":${nested}}`,
        `[{"id":"deep","name":"math_calc","arguments":${deepObject}}]`,
        `[{"id":"text","name":"json_query","arguments":{"json":"${nested}","path":"$"}}]`,
        '[{"id":"last","name":"math_calc","arguments":{"expression":"2+3"}}]',
      ]),
    ]);
    expect(code).toBe(EXIT.input);
    expect(err).toContain('line 1: call 1 is not an object (an array)');
    expect(err).toContain('line 2: call 1 is not an object (an array)');
    expect(err).toMatch(/line 3: call deep \(math_calc\) failed: schema_validation/);
    expect(out).toMatch(/turn 4 \(line 4\): 1 calls\n {2}#0 json_query ok/);
    // The deep value as JSON (cut for the line), never `[object Object]`.
    const line4 = out.split('\n').find((line) => line.includes('#0 json_query ok'))!;
    expect(line4).toMatch(/ → \{"count":1,"values":\[\[{50}/);
    expect(line4).not.toContain('[object Object]');
    expect(out).toMatch(/turn 5 \(line 5\): 1 calls\n {2}#0 math_calc ok .*"value":5/);
    expect(out).toContain('calls      3');
  });
});
