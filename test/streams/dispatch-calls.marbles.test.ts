import { map } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CancelledError,
  createDispatcher,
  createToolRegistry,
  defineTool,
  dispatchCalls,
  type ProposedCall,
  type ToolCallResult,
} from '../../src/index.js';
import { type MarbleClock as Clock, expectedFrom, MarbleClock } from './marble-clock.js';

/**
 * `wait` finishes after `frames` virtual frames and records when it started and whether its
 * signal aborted; `boom` fails at once. Read-only, so the turn engine may run them side by side.
 */
function virtualTools(clock: Clock) {
  const started: [string, number][] = [];
  const aborted: [string, number][] = [];
  const wait = defineTool<{ id: string; frames: number }, string>({
    name: 'wait',
    description: 'waits some frames',
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'string' }, frames: { type: 'integer' } },
      required: ['id', 'frames'],
    },
    safety: { readOnly: true },
    handler: ({ id, frames }, runtime) => {
      started.push([id, clock.frame]);
      const timer = clock.after(frames, id);
      return new Promise<string>((resolve, reject) => {
        timer.promise.then(resolve);
        runtime.signal.addEventListener('abort', () => {
          aborted.push([id, clock.frame]);
          timer.cancel();
          reject(runtime.signal.reason);
        });
      });
    },
  });
  const boom = defineTool<{ id: string }, string>({
    name: 'boom',
    description: 'fails',
    inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    safety: { readOnly: true },
    handler: () => {
      throw new Error('boom');
    },
  });
  const dispatcher = createDispatcher({ registry: createToolRegistry([wait, boom]) });
  return { dispatcher, started, aborted };
}

const wait = (id: string, frames: number): ProposedCall => ({
  id,
  name: 'wait',
  arguments: { id, frames },
});

/** Results as `id:status`, so diagrams stay readable. */
const brief = map((result: ToolCallResult) => `${result.toolCallId}:${result.status}`);

describe('dispatchCalls, in marbles', () => {
  let clock: MarbleClock;
  afterEach(() => {
    clock?.scheduler.flush();
  });

  it('emits results in planner order: a slow first call holds back a faster second one', async () => {
    clock = new MarbleClock();
    const { dispatcher } = virtualTools(clock);
    const calls = clock.cold('ab|', { a: wait('a', 5), b: wait('b', 1) });
    const results = clock.record(calls.pipe(dispatchCalls({ dispatcher }), brief));
    await clock.runTo(10);
    // b is done at frame 2 but waits for a (done at 5); the output completes after the last result.
    expect(results.log).toEqual(expectedFrom('-----(ab|)', { a: 'a:ok', b: 'b:ok' }));
  });

  it('emits each result as soon as every earlier one is ready', async () => {
    clock = new MarbleClock();
    const { dispatcher } = virtualTools(clock);
    const calls = clock.cold('abc|', { a: wait('a', 1), b: wait('b', 4), c: wait('c', 1) });
    const results = clock.record(calls.pipe(dispatchCalls({ dispatcher }), brief));
    await clock.runTo(10);
    expect(results.log).toEqual(expectedFrom('-a---(bc|)', { a: 'a:ok', b: 'b:ok', c: 'c:ok' }));
  });

  it('runs at most maxConcurrentTools calls at once and starts the next as one finishes', async () => {
    clock = new MarbleClock();
    const { dispatcher, started } = virtualTools(clock);
    const calls = clock.cold('(abcd|)', {
      a: wait('a', 3),
      b: wait('b', 3),
      c: wait('c', 3),
      d: wait('d', 3),
    });
    const results = clock.record(
      calls.pipe(dispatchCalls({ dispatcher, maxConcurrentTools: 2 }), brief),
    );
    await clock.runTo(10);
    expect(started).toEqual([
      ['a', 0],
      ['b', 0],
      ['c', 3],
      ['d', 3],
    ]);
    expect(results.log.map(({ frame, notification }) => [frame, notification.kind])).toEqual([
      [3, 'N'],
      [3, 'N'],
      [6, 'N'],
      [6, 'N'],
      [6, 'C'],
    ]);
  });

  it('does not complete while the source is still open, however many results are out', async () => {
    clock = new MarbleClock();
    const { dispatcher } = virtualTools(clock);
    const calls = clock.cold('a------', { a: wait('a', 1) });
    const results = clock.record(calls.pipe(dispatchCalls({ dispatcher }), brief));
    await clock.runTo(8);
    expect(results.log).toEqual(expectedFrom('-a', { a: 'a:ok' }));
    results.unsubscribe();
  });

  it('completes at once for a source that completes empty', async () => {
    clock = new MarbleClock();
    const { dispatcher } = virtualTools(clock);
    const results = clock.record(
      clock.cold<ProposedCall>('--|').pipe(dispatchCalls({ dispatcher }), brief),
    );
    await clock.runTo(4);
    expect(results.log).toEqual(expectedFrom('--|'));
  });

  it('turns a failing tool into an error result in its place, never an error notification', async () => {
    clock = new MarbleClock();
    const { dispatcher } = virtualTools(clock);
    const calls = clock.cold('ab|', {
      a: { id: 'a', name: 'boom', arguments: { id: 'a' } },
      b: wait('b', 2),
    });
    const results = clock.record(calls.pipe(dispatchCalls({ dispatcher }), brief));
    await clock.runTo(6);
    expect(results.log).toEqual(expectedFrom('a--(b|)', { a: 'a:error', b: 'b:ok' }));
  });

  it('fails the output with the source error once the calls already taken have their results', async () => {
    clock = new MarbleClock();
    const { dispatcher } = virtualTools(clock);
    const failure = new Error('source failed');
    const calls = clock.cold('a-#', { a: wait('a', 4) }, failure);
    const results = clock.record(calls.pipe(dispatchCalls({ dispatcher }), brief));
    await clock.runTo(8);
    // The call taken before the failure still yields its one result, then the error follows.
    expect(results.log).toEqual(expectedFrom('----(a#)', { a: 'a:ok' }, failure));
  });

  it('cancels running calls when the subscriber unsubscribes, and emits nothing after', async () => {
    clock = new MarbleClock();
    const { dispatcher, aborted } = virtualTools(clock);
    const calls = clock.cold('ab', { a: wait('a', 10), b: wait('b', 10) });
    const results = clock.record(calls.pipe(dispatchCalls({ dispatcher }), brief));
    clock.at(3, () => results.unsubscribe());
    await clock.runTo(15);
    expect(aborted).toEqual([
      ['a', 3],
      ['b', 3],
    ]);
    expect(results.log).toEqual([]);
  });

  it('gives each call a cancelled result when the turn signal aborts', async () => {
    clock = new MarbleClock();
    const { dispatcher, aborted } = virtualTools(clock);
    const controller = new AbortController();
    const calls = clock.cold('ab|', { a: wait('a', 10), b: wait('b', 10) });
    const results = clock.record(
      calls.pipe(dispatchCalls({ dispatcher, signal: controller.signal }), brief),
    );
    clock.at(3, () => controller.abort(new CancelledError('stop')));
    await clock.runTo(15);
    expect(aborted.map(([id]) => id)).toEqual(['a', 'b']);
    expect(results.log).toEqual(expectedFrom('---(ab|)', { a: 'a:cancelled', b: 'b:cancelled' }));
  });
});
