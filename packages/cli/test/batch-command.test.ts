import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyReceipts } from 'switchyard/receipts';
import { describe, expect, it } from 'vitest';
import {
  CHAT_PATH,
  chatToolCallStream,
  errorReply,
  startOpenAIWireServer,
} from '../../../test/support/openai-wire-server.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import { batchCommand } from '../src/batch-command.js';
import { EXIT } from '../src/exit-codes.js';
import { captureIo } from './cli-io.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/tasks.jsonl', import.meta.url));

async function batch(args: string[], env: Record<string, string> = {}) {
  const capture = captureIo({ env });
  const code = await batchCommand([...args, '--no-workers'], capture.io);
  return { code, out: capture.out(), err: capture.err() };
}

function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('switchyard batch', () => {
  it('runs the offline example: one result line per task, receipts per task, a summary with cost', async () => {
    const dir = tempDir('switchyard-batch-');
    const out = join(dir, 'results.jsonl');
    const audit = join(dir, 'receipts');
    const { code, out: stdout } = await batch([
      EXAMPLE,
      '--out',
      out,
      '--audit',
      audit,
      '--sessions',
      '3',
      '--price-in',
      '3',
      '--price-out',
      '15',
      '--json',
    ]);
    expect(code).toBe(EXIT.ok);
    const results = jsonLines(readFileSync(out, 'utf8'));
    expect(results.map((result) => result.id).sort()).toEqual(
      ['add', 'hash', 'multiply', 'power', 'sum', 'words'].sort(),
    );
    expect(results.find((result) => result.id === 'multiply')).toMatchObject({
      status: 'completed',
      turns: 2,
      toolCalls: 3,
      failedToolCalls: 0,
      error: null,
      resumed: null,
      text: expect.stringContaining('- math_calc: {"expression":"(17) * (23)","value":391}'),
    });
    expect(results.find((result) => result.id === 'add')?.metadata).toEqual({ source: 'example' });
    expect(readdirSync(audit).sort()).toEqual(results.map((r) => `${r.id}.jsonl`).sort());
    expect(verifyReceipts(join(audit, 'multiply.jsonl'))).toMatchObject({
      ok: true,
      verifiedLines: 3,
    });
    const [{ summary }] = jsonLines(stdout) as [{ summary: Record<string, unknown> }];
    expect(summary).toMatchObject({ tasks: 6, succeeded: 6, failed: 0, toolCalls: 16 });
    // The demo model estimates its tokens, so the prices come to a cost.
    const usage = summary.usage as { inputTokens: number; outputTokens: number };
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(summary.costUsd).toBeCloseTo(
      (usage.inputTokens * 3 + usage.outputTokens * 15) / 1e6,
      10,
    );
    const callsIn = (table: unknown) =>
      Object.values(table as Record<string, { calls: number }>).reduce(
        (sum, row) => sum + row.calls,
        0,
      );
    expect(callsIn(results.find((result) => result.id === 'multiply')?.toolUsage)).toBe(3);
    expect(callsIn(summary.toolUsage)).toBe(16);
    // Priced: each tool's row has its model dollars, and each line the sum of its task's tools.
    const rows = Object.values(summary.toolUsage as Record<string, { totalUsd: number }>);
    expect(rows.map((row) => row.totalUsd)).toEqual(
      rows.map((row) => row.totalUsd).sort((a, b) => b - a),
    );
    expect(rows.every((row) => row.totalUsd > 0)).toBe(true);
    expect(results.find((result) => result.id === 'multiply')?.toolCost).toMatchObject({
      calls: 3,
      toolUsd: 0,
      modelUsd: expect.any(Number),
    });
  });

  it('prints result lines on stdout without --out, and reports unreadable lines by number (exit 3)', async () => {
    const file = join(tempDir('switchyard-batch-'), 'tasks.jsonl');
    writeFileSync(
      file,
      [
        '{"id":"a","task":"add 1 and 2"}',
        '{"id":"b"}',
        'oops',
        '{"id":"a","task":"again"}',
        '[1,2,3]',
        '{"task":"what is 3 times 4"}',
      ].join('\n'),
    );
    const { code, out, err } = await batch([file, '--quiet']);
    expect(code).toBe(EXIT.input);
    expect(jsonLines(out).map((result) => result.id)).toEqual(['a', 'line-6']);
    expect(err).toContain('line 2: "task" must be a non-empty string');
    expect(err).toContain('line 3: not valid JSON');
    expect(err).toContain('line 4: id "a" is already used on line 1');
    expect(err).toContain('line 5: a task must be an object');
  });

  it('exits 1 when a task fails, 0 with --allow-failures', async () => {
    const dir = tempDir('switchyard-batch-');
    const file = join(dir, 'tasks.jsonl');
    writeFileSync(file, '{"id":"x","task":"add 1 and 2"}\n');
    // One model turn allowed, and the demo calls tools in its first: the run is cut off.
    const args = [file, '--max-iterations', '1', '--quiet'];
    const failed = await batch(args);
    expect(failed.code).toBe(EXIT.failures);
    expect(jsonLines(failed.out)[0]).toMatchObject({
      status: 'max_iterations',
      error: expect.any(String),
    });
    expect((await batch([...args, '--allow-failures'])).code).toBe(EXIT.ok);
  });

  it('talks to an OpenAI-compatible base URL and waits out a 429 for every session', async () => {
    const server = await startOpenAIWireServer();
    try {
      server.reply(
        CHAT_PATH,
        errorReply(429, 'slow down', {
          type: 'rate_limit_error',
          headers: { 'retry-after-ms': '30' },
        }),
        {
          sse: chatToolCallStream([], {
            text: 'First answer.',
            finish: 'stop',
            usage: { input: 100, output: 50 },
          }),
        },
        {
          sse: chatToolCallStream([], {
            text: 'Second answer.',
            finish: 'stop',
            usage: { input: 100, output: 50 },
          }),
        },
      );
      const file = join(tempDir('switchyard-batch-'), 'tasks.jsonl');
      writeFileSync(file, '{"id":"one","task":"hello"}\n{"id":"two","task":"hello again"}\n');
      const { code, out, err } = await batch(
        [
          file,
          '--provider',
          'openai',
          '--base-url',
          server.baseURL,
          '--sessions',
          '1',
          '--quiet',
          '--price-in',
          '2',
          '--price-out',
          '10',
        ],
        { OPENAI_API_KEY: 'test-key' },
      );
      expect(code).toBe(EXIT.ok);
      expect(jsonLines(out).map((result) => [result.id, result.text])).toEqual([
        ['one', 'First answer.'],
        ['two', 'Second answer.'],
      ]);
      expect(server.requests).toHaveLength(3);
      expect(err).toContain('tokens     200 in, 100 out  cost $0.0014  (1 rate-limit waits)');
    } finally {
      await server.close();
    }
  });

  it('writes one receipt per call the model proposed, refused ones included, and counts them all', async () => {
    const server = await startOpenAIWireServer();
    try {
      server.reply(
        CHAT_PATH,
        {
          sse: chatToolCallStream([
            { id: 'ok', name: 'hold', arguments: ['{"ms":1}'] },
            { id: 'who', name: 'multiply', arguments: ['{}'] },
            { id: 'bad', name: 'hold', arguments: ['{"ms":'] },
            { id: 'type', name: 'hold', arguments: ['{"ms":"one"}'] },
          ]),
        },
        { sse: chatToolCallStream([], { text: 'Done.', finish: 'stop' }) },
      );
      const dir = tempDir('switchyard-batch-');
      const file = join(dir, 'tasks.jsonl');
      writeFileSync(file, '{"id":"mixed","task":"hold"}\n');
      const audit = join(dir, 'receipts');
      const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
      const { code, out } = await batch(
        [
          file,
          ...['--provider', 'openai', '--base-url', server.baseURL],
          ...['--tools', join(fixtures, 'gauge-tools.ts'), '--audit', audit, '--quiet'],
        ],
        { OPENAI_API_KEY: 'test-key' },
      );
      expect(code).toBe(EXIT.ok);
      expect(jsonLines(out)[0]).toMatchObject({ toolCalls: 4, failedToolCalls: 3 });
      const receipts = jsonLines(readFileSync(join(audit, 'mixed.jsonl'), 'utf8'));
      expect(receipts.map((receipt) => [receipt.tool_call_id, receipt.status]).sort()).toEqual([
        ['bad', 'schema_violation'],
        ['ok', 'ok'],
        ['type', 'schema_violation'],
        ['who', 'schema_violation'],
      ]);
    } finally {
      await server.close();
    }
  });

  it('keeps tool calls in flight across all sessions within --max-tool-calls', async () => {
    const dir = tempDir('switchyard-batch-');
    const file = join(dir, 'tasks.jsonl');
    writeFileSync(
      file,
      ['a', 'b', 'c', 'd'].map((id) => `{"id":"${id}","task":"hold"}`).join('\n'),
    );
    const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
    const { code, out } = await batch([
      file,
      '--sessions',
      '4',
      '--max-tool-calls',
      '3',
      '--tools',
      join(fixtures, 'gauge-tools.ts'),
      '--model-module',
      join(fixtures, 'gauge-model.ts'),
      '--quiet',
    ]);
    expect(code).toBe(EXIT.ok);
    expect(jsonLines(out).map((result) => result.toolCalls)).toEqual([4, 4, 4, 4]);
    const { gauge } = globalThis as { gauge?: { max: number; inFlight: number } };
    // 16 calls of 4 sessions, each turn allowing 8 at once: only the shared bound holds them to 3.
    expect(gauge).toMatchObject({ max: 3, inFlight: 0 });
  });

  it('prints its help and refuses a missing file as unreadable input', async () => {
    const help = await batch(['--help']);
    expect(help.code).toBe(EXIT.ok);
    expect(help.out).toMatch(/^Usage: switchyard batch <tasks.jsonl \| -> \[options\]/);
    expect(help.out).toContain('--sessions <n>');
    await expect(batch([join(tempDir('switchyard-batch-'), 'none.jsonl')])).rejects.toMatchObject({
      code: 'SY_ERR_CLI_INPUT',
    });
  });
});
