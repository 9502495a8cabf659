import { describe, expect, it } from 'vitest';
import { dispatchTurn } from '../../src/index.js';
import { deferred } from '../../src/testing/index.js';
import { recordingDispatcher } from '../support/recording-dispatcher.js';

describe('a cancelled turn', () => {
  it('gives every call a receipt: the running ones and the queued ones that never start', async () => {
    const gate = deferred();
    const stack = recordingDispatcher({ hold: gate.promise });
    const controller = new AbortController();
    const calls = Array.from({ length: 6 }, (_, index) => ({
      id: `c${index}`,
      name: 'add',
      arguments: '{"a":1,"b":1}',
    }));
    const running = dispatchTurn(calls, {
      dispatcher: stack.dispatcher,
      maxConcurrentTools: 2,
      signal: controller.signal,
    });
    await expect.poll(() => stack.inFlight).toBe(2);
    controller.abort(new Error('stop'));
    const results = await running;
    expect(results.map((result) => result.status)).toEqual(Array(6).fill('cancelled'));
    expect(stack.started).toBe(2);
    expect(stack.receipts).toHaveLength(6);
  });
});
