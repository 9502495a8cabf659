import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createDispatcher, createToolRegistry } from '../../src/index.js';
import { StepTurn } from '../../src/streams/step-turn.js';
import { deferred } from '../../src/testing/index.js';
import { recordingDispatcher } from '../support/recording-dispatcher.js';
import { addTool } from '../support/tools.js';

const call = (id: string) => ({ id, name: 'add', arguments: '{"a":1,"b":2}' });

describe('StepTurn', () => {
  it('bounds a step begun without a signal and answers its calls in the order they joined', async () => {
    const gate = deferred();
    const stack = recordingDispatcher({ hold: gate.promise });
    const step = new StepTurn({ dispatcher: stack.dispatcher, maxConcurrentTools: 2 });
    const results = Promise.all(['a', 'b', 'c', 'd'].map((id) => step.dispatch(call(id))));
    await expect.poll(() => stack.inFlight).toBe(2);
    gate.resolve();
    expect((await results).map((result) => [result.toolCallId, result.emitOrder])).toEqual([
      ['a', 0],
      ['b', 1],
      ['c', 2],
      ['d', 3],
    ]);
    expect(stack.peak).toBe(2);
  });

  it('still lets a signal brought later by a call cancel that call', async () => {
    const gate = deferred();
    const stack = recordingDispatcher({ hold: gate.promise });
    const step = new StepTurn({ dispatcher: stack.dispatcher });
    const quiet = step.dispatch(call('a'));
    const controller = new AbortController();
    const signalled = step.dispatch(call('b'), controller.signal);
    await expect.poll(() => stack.inFlight).toBe(2);
    controller.abort(new Error('stop'));
    expect(await signalled).toMatchObject({ toolCallId: 'b', status: 'cancelled' });
    gate.resolve();
    expect(await quiet).toMatchObject({ toolCallId: 'a', ok: true });
    expect(stack.aborted).toBe(1);
  });

  it('cancels every call of a step begun with a signal, running or queued', async () => {
    const gate = deferred();
    const stack = recordingDispatcher({ hold: gate.promise });
    const controller = new AbortController();
    const step = new StepTurn(
      { dispatcher: stack.dispatcher, maxConcurrentTools: 1 },
      controller.signal,
    );
    const results = Promise.all(['a', 'b'].map((id) => step.dispatch(call(id), controller.signal)));
    await expect.poll(() => stack.inFlight).toBe(1);
    controller.abort(new Error('stop'));
    expect((await results).map((result) => result.status)).toEqual(['cancelled', 'cancelled']);
    expect(stack.started).toBe(1);
  });

  it('leaves no listener on a long-lived framework signal once its steps are answered', async () => {
    const stack = recordingDispatcher({});
    const controller = new AbortController();
    for (let index = 0; index < 200; index += 1) {
      const step = new StepTurn({ dispatcher: stack.dispatcher }, controller.signal);
      await Promise.all(['a', 'b'].map((id) => step.dispatch(call(id), controller.signal)));
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('links a long-lived signal once for a step whose quick calls arrive one after another', async () => {
    const dispatcher = createDispatcher({ registry: createToolRegistry([addTool]) });
    const { signal } = new AbortController();
    const addListener = signal.addEventListener.bind(signal);
    let linked = 0;
    signal.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => {
      linked += 1;
      addListener(...args);
    }) as AbortSignal['addEventListener'];
    const step = new StepTurn({ dispatcher }, signal);
    // Each call arrives a microtask after the one before has settled, as a framework hands them over.
    const results = await Promise.all(
      ['a', 'b', 'c', 'd'].map(async (id) => {
        await null;
        return step.dispatch(call(id), signal);
      }),
    );
    expect(results.map((result) => result.emitOrder)).toEqual([0, 1, 2, 3]);
    expect(linked).toBe(1);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});
