import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { exampleTools } from '../../src/cli/example-tools.js';
import { runBatch } from '../../src/cli/run-command.js';
import { createDispatcher, createToolRegistry, dispatchTurn } from '../../src/index.js';
import { tempDir } from '../support/temp-dir.js';

function batchFile(lines: string[]): string {
  const path = join(tempDir('switchyard-batch-'), 'batch.jsonl');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

async function run(lines: string[], options: { json?: boolean; parallelTurns?: number } = {}) {
  const dispatcher = createDispatcher({
    registry: createToolRegistry(exampleTools({ workers: false })),
  });
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk) => {
    text += chunk;
  });
  const summary = await runBatch({
    file: batchFile(lines),
    dispatcher,
    runTurn: (calls, turn) => dispatchTurn(calls, { dispatcher, turn }),
    json: options.json ?? false,
    progress: false,
    parallelTurns: options.parallelTurns ?? 1,
    sessionId: 'test',
    out,
    err: process.stderr,
  });
  return { summary, text };
}

const lines = [
  '{"calls":[{"id":"a","name":"add","arguments":"{\\"a\\":2,\\"b\\":3}"},{"id":"b","name":"wait","arguments":{"ms":5}}]}',
  'not json',
  '[{"id":"c","name":"calculate","arguments":{"op":"divide","a":1,"b":0}},{"id":"d","name":"nope","arguments":"{}"}]',
];

describe('switchyard run', () => {
  it('prints every result in planner order and a summary', async () => {
    const { summary, text } = await run(lines);
    expect(summary).toMatchObject({
      turns: 2,
      badLines: 1,
      calls: 4,
      ok: 2,
      failed: 2,
      failedByCategory: { schema_validation: 1, tool_error: 1 },
    });
    expect(summary.latencyMs.p50).toBeGreaterThan(0);
    const resultLines = text.split('\n').filter((line) => line.startsWith('  #'));
    expect(resultLines.map((line) => line.split(' ')[3])).toEqual([
      'add',
      'wait',
      'calculate',
      'nope',
    ]);
    expect(text).toContain('line 2: line 2 is not valid JSON');
    expect(text).toContain('calls      4: 2 ok, 2 failed (schema_validation 1, tool_error 1)');
  });

  it('writes one JSON object per result and a summary object with --json, in file order even with parallel turns', async () => {
    const { text } = await run(lines, { json: true, parallelTurns: 3 });
    const records = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(
      records.filter((record) => 'toolCallId' in record).map((record) => record.toolCallId),
    ).toEqual(['a', 'b', 'c', 'd']);
    expect(records.at(-1).summary.calls).toBe(4);
    expect(records[0]).toMatchObject({
      line: 1,
      emitOrder: 0,
      toolName: 'add',
      ok: true,
      result: 5,
    });
  });
});
