import { ToolTimeoutError } from 'switchyard';
import { fromErrorData } from 'switchyard/extension';
import { createToolRegistry, defineTool } from 'switchyard/tools';
import { describe, expect, it } from 'vitest';
import type { QueueJobData } from '../src/queue-job.js';
import { runQueueJob } from '../src/run-queue-job.js';

// The worker side of a queue call, without Redis: what a job resolves to decides whether the
// dispatcher sees the tool's outcome or a failed job (`executor_error`).
const hang = defineTool({
  name: 'hang',
  description: 'waits for its signal',
  inputSchema: { type: 'object', properties: {} },
  safety: { readOnly: true },
  timeoutMs: 30,
  handler: (_args, runtime) =>
    new Promise((_, reject) =>
      runtime.signal.addEventListener('abort', () => reject(runtime.signal.reason)),
    ),
});
const registry = createToolRegistry([hang]);
const job = (data: Partial<QueueJobData> = {}) => ({
  data: {
    tool: 'hang',
    args: {},
    callId: 'c1',
    turn: { iteration: 0, sessionId: 's', runId: null, emitOrder: 0 },
    timeoutMs: 30,
    ...data,
  },
  updateProgress: async () => undefined,
});

describe('runQueueJob', () => {
  it("completes the job with the tool's timeout when the worker's own limit is spent first", async () => {
    const result = await runQueueJob({
      job: job(),
      registry,
      values: {},
      signal: new AbortController().signal,
    });
    expect(result.ok).toBe(false);
    const error = 'error' in result ? fromErrorData(result.error) : undefined;
    expect(ToolTimeoutError.isInstance(error)).toBe(true);
  });

  it("fails the job with the dispatcher's reason when the dispatcher cancelled the call", async () => {
    const controller = new AbortController();
    const running = runQueueJob({
      job: job({ timeoutMs: 5_000 }),
      registry,
      values: {},
      signal: controller.signal,
    });
    controller.abort(new Error('cancelled by the dispatcher'));
    await expect(running).rejects.toThrow('cancelled by the dispatcher');
  });
});
