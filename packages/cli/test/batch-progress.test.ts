import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BatchProgress } from '../src/batch-progress.js';
import type { TaskOutcome } from '../src/task-outcome.js';

function outcome(id: string, status: TaskOutcome['status']): TaskOutcome {
  return {
    id,
    status,
    text: '',
    turns: 2,
    toolCalls: 3,
    failedToolCalls: 0,
    usage: { inputTokens: 100, outputTokens: 20 },
    latencyMs: 1500,
    error: status === 'failed' ? 'model failed' : null,
    resumed: null,
  };
}

function stream(tty: boolean) {
  const sink = new PassThrough();
  let text = '';
  sink.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  Object.assign(sink, { isTTY: tty });
  return { sink, text: () => text };
}

describe('BatchProgress', () => {
  it('redraws one bar on a terminal: done, failed, rate, ETA and tokens', () => {
    const { sink, text } = stream(true);
    const progress = new BatchProgress(sink, 4, false, 0);
    progress.finished(outcome('a', 'completed'), 1000);
    progress.finished(outcome('b', 'failed'), 2000);
    expect(text()).toContain(
      '\r[############............] 2/4 tasks  1 failed · 1.0 tasks/s · ETA 2 s · 240 tokens',
    );
    progress.end();
    expect(text().endsWith('\r\u001b[K')).toBe(true);
  });

  it('writes one plain line per task elsewhere, and nothing when quiet', () => {
    const plain = stream(false);
    new BatchProgress(plain.sink, 2, false).finished(outcome('a', 'failed'));
    expect(plain.text()).toBe('[1/2] a failed: model failed · 2 turns · 3 tool calls · 1.50 s\n');
    const quiet = stream(true);
    new BatchProgress(quiet.sink, 2, true).finished(outcome('a', 'completed'));
    expect(quiet.text()).toBe('');
  });
});
