import { describe, expect, it, vi } from 'vitest';
import { createActor } from '../../src/actors/actor.js';
import { ActorStoppedError } from '../../src/errors.js';
import { type Deferred, deferred } from '../../src/testing/deferred.js';

/** Settles every pending promise callback. */
function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function counter(supervise?: (error: unknown) => 'resume' | 'restart' | 'stop') {
  return createActor<{ total: number }, number | 'fail', number>({
    name: 'counter',
    init: () => ({ total: 0 }),
    receive(state, message) {
      if (message === 'fail') throw new Error('bad message');
      state.total += message;
      return state.total;
    },
    ...(supervise ? { supervise } : {}),
  });
}

describe('createActor', () => {
  it('handles one message at a time', async () => {
    let active = 0;
    let maxActive = 0;
    const handled: number[] = [];
    const actor = createActor<null, { id: number; gate: Deferred<void> }, number>({
      name: 'gated',
      init: () => null,
      async receive(_state, { id, gate }) {
        active += 1;
        maxActive = Math.max(maxActive, active);
        await gate.promise;
        handled.push(id);
        active -= 1;
        return id;
      },
    });
    const gates = [deferred(), deferred(), deferred()];
    const replies = gates.map((gate, id) => actor.ask({ id, gate }));
    await flush();
    expect(active).toBe(1);
    expect(actor.mailboxSize).toBe(2);
    // Opening later gates first changes nothing: message 0 still holds the mailbox.
    gates[2]!.resolve();
    gates[1]!.resolve();
    await flush();
    expect(handled).toEqual([]);
    gates[0]!.resolve();
    expect(await Promise.all(replies)).toEqual([0, 1, 2]);
    expect(handled).toEqual([0, 1, 2]);
    expect(maxActive).toBe(1);
  });

  it('handles messages in FIFO order', async () => {
    const seen: number[] = [];
    const actor = createActor<null, number, void>({
      name: 'fifo',
      init: () => null,
      async receive(_state, message) {
        await Promise.resolve();
        seen.push(message);
      },
    });
    for (let index = 0; index < 100; index += 1) actor.tell(index);
    await actor.stop();
    expect(seen).toEqual(Array.from({ length: 100 }, (_, index) => index));
  });

  it('replies to ask and rejects it with what receive threw', async () => {
    const actor = counter();
    expect(await actor.ask(2)).toBe(2);
    await expect(actor.ask('fail')).rejects.toThrow('bad message');
    expect(await actor.ask(3)).toBe(5);
  });

  it('resumes with the same state by default after a failure', async () => {
    const actor = counter();
    actor.tell(10);
    await expect(actor.ask('fail')).rejects.toThrow();
    expect(await actor.ask(1)).toBe(11);
    expect(actor.stopped).toBe(false);
  });

  it('restarts with a fresh state when the supervisor says restart', async () => {
    const actor = counter(() => 'restart');
    actor.tell(10);
    await expect(actor.ask('fail')).rejects.toThrow();
    expect(await actor.ask(1)).toBe(1);
  });

  it('stops and refuses queued and later messages when the supervisor says stop', async () => {
    const actor = counter(() => 'stop');
    const failing = actor.ask('fail');
    const queued = actor.ask(1);
    await expect(failing).rejects.toThrow('bad message');
    await expect(queued).rejects.toBeInstanceOf(ActorStoppedError);
    expect(actor.stopped).toBe(true);
    expect(() => actor.tell(1)).toThrow(ActorStoppedError);
    await expect(actor.ask(1)).rejects.toMatchObject({
      code: 'SY_ERR_ACTOR_STOPPED',
      actorName: 'counter',
    });
  });

  it('stops instead of wedging when the supervisor itself throws', async () => {
    const reported: unknown[] = [];
    const actor = createActor<null, string, string>({
      name: 'fragile',
      init: () => null,
      receive: () => {
        throw new Error('receive failed');
      },
      supervise: () => {
        throw new Error('supervisor failed');
      },
      onUnhandledError: (error) => reported.push(error),
    });
    const first = actor.ask('a');
    const second = actor.ask('b');
    await expect(first).rejects.toThrow('receive failed');
    await expect(second).rejects.toBeInstanceOf(ActorStoppedError);
    expect(actor.stopped).toBe(true);
    expect(actor.mailboxSize).toBe(0);
    expect(reported).toEqual([expect.objectContaining({ message: 'supervisor failed' })]);
  });

  it('reports failures of tell messages to onUnhandledError', async () => {
    const onUnhandledError = vi.fn();
    const actor = createActor<null, string, void>({
      name: 'teller',
      init: () => null,
      receive: (_state, message) => {
        throw new Error(`cannot handle ${message}`);
      },
      onUnhandledError,
    });
    actor.tell('x');
    await actor.stop();
    expect(onUnhandledError).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'cannot handle x' }),
      'x',
    );
  });

  it('stop() lets queued messages finish, then resolves and refuses new ones', async () => {
    const gate = deferred();
    const handled: number[] = [];
    const actor = createActor<null, number, number>({
      name: 'draining',
      init: () => null,
      async receive(_state, message) {
        await gate.promise;
        handled.push(message);
        return message;
      },
    });
    const replies = [actor.ask(1), actor.ask(2), actor.ask(3)];
    let stopped = false;
    const stopping = actor.stop().then(() => {
      stopped = true;
    });
    expect(actor.stopped).toBe(true);
    expect(() => actor.tell(4)).toThrow(ActorStoppedError);
    await expect(actor.ask(5)).rejects.toBeInstanceOf(ActorStoppedError);
    await flush();
    expect(stopped).toBe(false);
    gate.resolve();
    await stopping;
    expect(handled).toEqual([1, 2, 3]);
    expect(await Promise.all(replies)).toEqual([1, 2, 3]);
  });

  it('resolves every stop() called while the mailbox drains', async () => {
    const gate = deferred();
    const actor = createActor<null, number, void>({
      name: 'twice',
      init: () => null,
      receive: () => gate.promise,
    });
    actor.tell(1);
    const first = actor.stop();
    const second = actor.stop();
    gate.resolve();
    await expect(Promise.all([first, second])).resolves.toEqual([undefined, undefined]);
  });

  it('stop() on an idle actor resolves at once', async () => {
    const actor = counter();
    await actor.stop();
    expect(actor.stopped).toBe(true);
  });

  it('hands queued messages to receiveBatch together, in order, up to maxBatch', async () => {
    const batches: number[][] = [];
    const firstGate = deferred();
    const actor = createActor<null, number, string>({
      name: 'batcher',
      init: () => null,
      receive: () => 'unused',
      async receiveBatch(_state, messages) {
        batches.push([...messages]);
        if (batches.length === 1) await firstGate.promise;
        return messages.map((message) => `reply ${message}`);
      },
      maxBatch: 3,
    });
    const replies = [1, 2, 3, 4, 5, 6].map((message) => actor.ask(message));
    firstGate.resolve();
    expect(await Promise.all(replies)).toEqual([1, 2, 3, 4, 5, 6].map((n) => `reply ${n}`));
    expect(batches).toEqual([[1], [2, 3, 4], [5, 6]]);
  });

  it('fails every message of a batch when receiveBatch throws', async () => {
    const gate = deferred();
    const actor = createActor<null, number, number>({
      name: 'batch_fail',
      init: () => null,
      receive: (_state, message) => message,
      async receiveBatch(_state, messages) {
        if (messages.includes(1)) {
          await gate.promise;
          return [1];
        }
        throw new Error('write failed');
      },
    });
    const first = actor.ask(1);
    const rest = [actor.ask(2), actor.ask(3)];
    gate.resolve();
    expect(await first).toBe(1);
    for (const reply of rest) await expect(reply).rejects.toThrow('write failed');
    expect(actor.stopped).toBe(false);
  });

  it('lets receive tell its own actor without running it re-entrantly', async () => {
    const seen: string[] = [];
    let active = 0;
    const actor = createActor<null, string, void>({
      name: 'self',
      init: () => null,
      receive(_state, message) {
        active += 1;
        expect(active).toBe(1);
        seen.push(message);
        if (message === 'first') actor.tell('second');
        active -= 1;
      },
    });
    actor.tell('first');
    await actor.stop();
    expect(seen).toEqual(['first', 'second']);
  });
});
