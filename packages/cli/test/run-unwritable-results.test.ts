import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { EXIT } from '../src/exit-codes.js';
import { runCommand } from '../src/run-command.js';
import { captureIo } from './cli-io.js';

const tools = new URL('./fixtures/unwritable-results-tools.ts', import.meta.url).pathname;

describe('switchyard run --json: results JSON.stringify cannot write', () => {
  it('writes a 20,000-deep result and a BigInt as JSON lines instead of stopping the run', async () => {
    const file = join(tempDir('switchyard-unwritable-'), 'turns.jsonl');
    writeFileSync(
      file,
      '{"calls":[{"id":"a","name":"deep","arguments":"{}"},{"id":"b","name":"big","arguments":"{}"}]}\n',
    );
    const capture = captureIo();
    const code = await runCommand(
      [file, '--tools', tools, '--json', '--no-workers', '--no-progress'],
      capture.io,
    );
    expect(capture.err()).toBe('');
    expect(code).toBe(EXIT.ok);
    const [deep, big] = capture
      .out()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { toolCallId: string; ok: boolean; result: unknown });
    expect(deep).toMatchObject({ toolCallId: 'a', ok: true });
    let depth = 0;
    let node = deep?.result as { value?: unknown; end?: boolean };
    while (node.value !== undefined) {
      node = node.value as typeof node;
      depth += 1;
    }
    expect([depth, node.end]).toEqual([20_000, true]);
    expect(big).toMatchObject({ toolCallId: 'b', ok: true, result: { count: '[bigint 10]' } });
  });
});
