import { describe, expect, it } from 'vitest';
import { FifoQueue } from '../../src/actors/fifo-queue.js';
import { createActor } from '../../src/actors/index.js';
import { ActorStoppedError } from '../../src/index.js';
import { deferred } from '../../src/testing/index.js';

describe('createActor', () => {
  it('handles one message at a time, in order', async () => {
    const gate = deferred();
    let running = 0;
    let peak = 0;
    const seen: number[] = [];
    const actor = createActor({
      name: 'serial',
      init: () => ({}),
      receive: async (_state, message: number) => {
        running += 1;
        peak = Math.max(peak, running);
        if (message === 0) await gate.promise;
        seen.push(message);
        running -= 1;
        return message * 10;
      },
    });
    const replies = [0, 1, 2, 3].map((message) => actor.ask(message));
    expect(actor.mailboxSize).toBe(3);
    gate.resolve();
    expect(await Promise.all(replies)).toEqual([0, 10, 20, 30]);
    expect(seen).toEqual([0, 1, 2, 3]);
    expect(peak).toBe(1);
  });

  it('owns its state across messages', async () => {
    const counter = createActor({
      name: 'counter',
      init: () => ({ n: 0 }),
      receive: (state, by: number) => (state.n += by),
    });
    counter.tell(1);
    counter.tell(2);
    expect(await counter.ask(3)).toBe(6);
  });

  it('rejects the asker when receive throws, and supervises: resume, restart, stop', async () => {
    const make = (directive: 'resume' | 'restart' | 'stop') =>
      createActor({
        name: directive,
        init: () => ({ n: 0 }),
        receive: (state, message: number | 'fail') => {
          if (message === 'fail') throw new Error('bad message');
          state.n += message;
          return state.n;
        },
        supervise: () => directive,
      });
    const resume = make('resume');
    await resume.ask(5);
    await expect(resume.ask('fail')).rejects.toThrow('bad message');
    expect(await resume.ask(1)).toBe(6);

    const restart = make('restart');
    await restart.ask(5);
    await expect(restart.ask('fail')).rejects.toThrow('bad message');
    expect(await restart.ask(1)).toBe(1);

    const stop = make('stop');
    const failing = stop.ask('fail');
    const queued = stop.ask(1);
    await expect(failing).rejects.toThrow('bad message');
    await expect(queued).rejects.toBeInstanceOf(ActorStoppedError);
    expect(stop.stopped).toBe(true);
    expect(() => stop.tell(1)).toThrow(ActorStoppedError);
  });

  it('reports failures of tell messages to onUnhandledError', async () => {
    const failures: unknown[] = [];
    const actor = createActor({
      name: 'teller',
      init: () => null,
      receive: () => {
        throw new Error('lost');
      },
      onUnhandledError: (error) => failures.push(error),
    });
    actor.tell('x');
    await actor.stop();
    expect(failures).toHaveLength(1);
  });

  it('finishes queued messages on stop, then refuses new ones', async () => {
    const gate = deferred();
    const handled: number[] = [];
    const actor = createActor({
      name: 'draining',
      init: () => null,
      receive: async (_state, message: number) => {
        if (message === 1) await gate.promise;
        handled.push(message);
      },
    });
    actor.tell(1);
    actor.tell(2);
    const stopped = actor.stop();
    await expect(actor.ask(3)).rejects.toBeInstanceOf(ActorStoppedError);
    gate.resolve();
    await stopped;
    expect(handled).toEqual([1, 2]);
  });

  it('hands a burst of queued messages to receiveBatch, one reply each', async () => {
    const batches: number[][] = [];
    const gate = deferred();
    const actor = createActor({
      name: 'batcher',
      init: () => null,
      receive: () => -1,
      receiveBatch: async (_state, messages: readonly number[]) => {
        if (batches.length === 0) await gate.promise;
        batches.push([...messages]);
        return messages.map((message) => message + 100);
      },
      maxBatch: 3,
    });
    const replies = [1, 2, 3, 4, 5].map((message) => actor.ask(message));
    gate.resolve();
    expect(await Promise.all(replies)).toEqual([101, 102, 103, 104, 105]);
    expect(batches).toEqual([[1], [2, 3, 4], [5]]);
  });
});

describe('FifoQueue', () => {
  it('is first in, first out, with size and peek', () => {
    const queue = new FifoQueue<number>();
    expect(queue.shift()).toBeUndefined();
    queue.push(1);
    queue.push(2);
    expect(queue.peek()).toBe(1);
    expect(queue.size).toBe(2);
    expect([...queue]).toEqual([1, 2]);
    expect(queue.shift()).toBe(1);
    queue.push(3);
    expect([queue.shift(), queue.shift(), queue.shift()]).toEqual([2, 3, undefined]);
    expect(queue.size).toBe(0);
  });

  it('moves 200k items through in order', () => {
    const queue = new FifoQueue<number>();
    for (let index = 0; index < 200_000; index += 1) queue.push(index);
    let expected = 0;
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      if (item !== expected) throw new Error(`out of order at ${expected}`);
      expected += 1;
    }
    expect(expected).toBe(200_000);
  });
});
