import fc from 'fast-check';
import { Subject, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  createDispatcher,
  createToolRegistry,
  defineTool,
  dispatchCalls,
  dispatchTurn,
  InvalidOptionError,
  type ProposedCall,
  streamTurn,
  type ToolCallResult,
} from '../../src/index.js';
import { call, flush, gatedTools } from './support.js';

describe('dispatchTurn: bounded fan-out', () => {
  it.each([1, 2, 4])('runs exactly %i calls at once when the bound is %i', async (bound) => {
    const tools = gatedTools();
    const ids = Array.from({ length: 10 }, (_, index) => `c${index}`);
    const turn = dispatchTurn(
      ids.map((id) => call('read', id)),
      { dispatcher: tools.dispatcher, maxConcurrentTools: bound },
    );
    for (const id of ids) {
      await tools.arrived(id);
      await flush();
      expect(tools.running.size).toBeLessThanOrEqual(bound);
      tools.open(id);
    }
    const results = await turn;
    expect(tools.peak()).toBe(bound);
    expect(results.map((result) => result.toolCallId)).toEqual(ids);
  });

  it('uses a default bound of 8', async () => {
    const tools = gatedTools();
    const ids = Array.from({ length: 12 }, (_, index) => `c${index}`);
    const turn = dispatchTurn(
      ids.map((id) => call('read', id)),
      { dispatcher: tools.dispatcher },
    );
    await flush(10);
    expect(tools.running.size).toBe(8);
    for (const id of ids) tools.open(id);
    await turn;
  });

  it('rejects a bound that is not a positive integer', async () => {
    const tools = gatedTools();
    await expect(() =>
      dispatchTurn([], { dispatcher: tools.dispatcher, maxConcurrentTools: 0 }),
    ).rejects.toThrow(InvalidOptionError);
  });
});

describe('dispatchTurn: planner order', () => {
  it('returns results in planner order for any completion order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 1, max: 12 })
          .chain((size) =>
            fc.tuple(
              fc.constant(size),
              fc.shuffledSubarray([...Array(size).keys()], { minLength: size, maxLength: size }),
              fc.integer({ min: 1, max: 6 }),
            ),
          ),
        async ([size, completion, bound]) => {
          const tools = gatedTools();
          const ids = Array.from({ length: size }, (_, index) => `c${index}`);
          const turn = dispatchTurn(
            ids.map((id) => call('read', id)),
            { dispatcher: tools.dispatcher, maxConcurrentTools: bound },
          );
          // Open gates in the generated order; a gate opened before its call starts just lets it pass.
          for (const index of completion) {
            tools.open(`c${index}`);
            await flush(1);
          }
          const results = await turn;
          expect(results.map((result) => result.toolCallId)).toEqual(ids);
          expect(results.map((result) => result.emitOrder)).toEqual(ids.map((_, index) => index));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('streams each result as soon as it and every earlier one are ready', async () => {
    const tools = gatedTools();
    const delivered: string[] = [];
    const consuming = (async () => {
      for await (const result of streamTurn(
        [call('read', 'a'), call('read', 'b'), call('read', 'c')],
        { dispatcher: tools.dispatcher },
      )) {
        delivered.push(result.toolCallId);
      }
    })();
    tools.open('c');
    await flush();
    expect(delivered).toEqual([]);
    tools.open('a');
    await flush();
    expect(delivered).toEqual(['a']);
    tools.open('b');
    await consuming;
    expect(delivered).toEqual(['a', 'b', 'c']);
  });
});

describe('dispatchTurn: safety-aware scheduling', () => {
  it('never overlaps writes to the same resource, keeping their planner order, while others proceed', async () => {
    const tools = gatedTools();
    const turn = dispatchTurn(
      [
        call('write', 'w1', { path: './notes.md' }),
        call('write', 'w2', { path: 'notes.md' }),
        call('write', 'w3', { path: 'other.md' }),
        call('read', 'r1'),
      ],
      { dispatcher: tools.dispatcher },
    );
    await flush(10);
    expect(new Set(tools.running)).toEqual(new Set(['w1', 'w3', 'r1']));
    tools.open('w3');
    tools.open('r1');
    tools.open('w1');
    await tools.arrived('w2');
    tools.open('w2');
    await turn;
    expect(tools.overlaps.filter(([a, b]) => [a, b].sort().join() === 'w1,w2')).toEqual([]);
    expect(tools.started.indexOf('w1')).toBeLessThan(tools.started.indexOf('w2'));
  });

  it('runs calls sharing an exclusive lane one after another', async () => {
    const tools = gatedTools();
    const turn = dispatchTurn([call('git', 'g1'), call('git', 'g2'), call('read', 'r')], {
      dispatcher: tools.dispatcher,
    });
    await flush(10);
    expect(new Set(tools.running)).toEqual(new Set(['g1', 'r']));
    tools.open('g1');
    tools.open('r');
    await tools.arrived('g2');
    tools.open('g2');
    await turn;
    expect(tools.overlaps.some(([a, b]) => a.startsWith('g') && b.startsWith('g'))).toBe(false);
  });

  it('never runs a tool that requires confirmation beside a sibling', async () => {
    const tools = gatedTools();
    const turn = dispatchTurn([call('read', 'r1'), call('confirm', 'k'), call('read', 'r2')], {
      dispatcher: tools.dispatcher,
    });
    await flush(10);
    expect([...tools.running]).toEqual(['r1']);
    tools.open('r1');
    await tools.arrived('k');
    await flush();
    expect([...tools.running]).toEqual(['k']);
    tools.open('k');
    await tools.arrived('r2');
    tools.open('r2');
    const results = await turn;
    expect(tools.overlaps.filter(([a, b]) => a === 'k' || b === 'k')).toEqual([]);
    expect(results.map((result) => result.toolCallId)).toEqual(['r1', 'k', 'r2']);
  });
});

describe('dispatchTurn: cancellation', () => {
  it('cancels queued and running calls when the turn signal aborts; one result each', async () => {
    const tools = gatedTools();
    const controller = new AbortController();
    const ids = ['a', 'b', 'c', 'd'];
    const turn = dispatchTurn(
      ids.map((id) => call('read', id)),
      { dispatcher: tools.dispatcher, maxConcurrentTools: 2, signal: controller.signal },
    );
    await tools.arrived('a');
    tools.open('a');
    await tools.arrived('c');
    controller.abort(new Error('user stopped'));
    const results = await turn;
    expect(results.map((result) => [result.toolCallId, result.status])).toEqual([
      ['a', 'ok'],
      ['b', 'cancelled'],
      ['c', 'cancelled'],
      ['d', 'cancelled'],
    ]);
    expect(tools.started).not.toContain('d');
  });

  it('cancels the siblings of a call that fails fatally, when asked to', async () => {
    const tools = gatedTools();
    const turn = dispatchTurn(
      [
        call('read', 'a'),
        call('read', 'bad', { fail: true }),
        call('read', 'c'),
        call('read', 'queued'),
      ],
      {
        dispatcher: tools.dispatcher,
        maxConcurrentTools: 3,
        cancelSiblingsOnFailure: true,
      },
    );
    await tools.arrived('c');
    tools.open('bad');
    const results = await turn;
    expect(results.map((result) => [result.toolCallId, result.status])).toEqual([
      ['a', 'cancelled'],
      ['bad', 'error'],
      ['c', 'cancelled'],
      ['queued', 'cancelled'],
    ]);
    expect(results[0]?.error).toContain('a sibling call failed: read (bad)');
    expect(tools.started).not.toContain('queued');
  });

  it('does not treat a schema violation as fatal', async () => {
    const tools = gatedTools();
    const turn = dispatchTurn([call('read', 'a'), { id: 'bad', name: 'read', arguments: '{}' }], {
      dispatcher: tools.dispatcher,
      cancelSiblingsOnFailure: true,
    });
    await tools.arrived('a');
    tools.open('a');
    expect((await turn).map((result) => result.status)).toEqual(['ok', 'schema_violation']);
  });
});

describe('dispatchTurn: nothing lost', () => {
  it('yields one result per call for 10k calls with random failures', async () => {
    const flaky = defineTool<{ n: number }, number>({
      name: 'flaky',
      description: 'd',
      inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      safety: { readOnly: true },
      handler: async ({ n }) => {
        if (n % 7 === 3) throw new Error('unlucky');
        if (n % 5 === 0) await new Promise((resolve) => setImmediate(resolve));
        return n;
      },
    });
    const dispatcher = createDispatcher({ registry: createToolRegistry([flaky]) });
    const calls: ProposedCall[] = Array.from({ length: 10_000 }, (_, n) =>
      n % 101 === 0
        ? { id: `c${n}`, name: 'nope', arguments: '{}' }
        : { id: `c${n}`, name: 'flaky', arguments: { n } },
    );
    const results = await dispatchTurn(calls, { dispatcher, maxConcurrentTools: 16 });
    expect(results).toHaveLength(10_000);
    expect(results.map((result) => result.toolCallId)).toEqual(calls.map((item) => item.id));
    expect(results.filter((result) => result.status === 'tool_not_found')).toHaveLength(100);
    expect(results.filter((result) => result.status === 'error').length).toBeGreaterThan(1000);
  });

  it('pulls calls from a long source lazily instead of buffering it whole', async () => {
    const tools = gatedTools();
    let pulled = 0;
    function* calls() {
      for (let index = 0; index < 100_000; index += 1) {
        pulled += 1;
        yield call('write', `w${index}`, { path: 'same.txt' });
      }
    }
    const turn = dispatchTurn(calls(), { dispatcher: tools.dispatcher, maxConcurrentTools: 4 });
    await tools.arrived('w0');
    await flush(10);
    expect(pulled).toBeLessThanOrEqual(20);
    for (let index = 0; index < 50; index += 1) {
      tools.open(`w${index}`);
      if (index < 49) await tools.arrived(`w${index + 1}`);
    }
    await flush(5);
    expect(pulled).toBeLessThanOrEqual(80);
    void turn;
  });
});

describe('streamTurn: backpressure', () => {
  it('stops pulling calls while its consumer has not taken the results', async () => {
    const echo = defineTool<{ n: number }, number>({
      name: 'echo',
      description: 'd',
      inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
      safety: { readOnly: true },
      handler: ({ n }) => n,
    });
    const dispatcher = createDispatcher({ registry: createToolRegistry([echo]) });
    let pulled = 0;
    function* calls() {
      for (let n = 0; n < 10_000; n += 1) {
        pulled += 1;
        yield { id: `c${n}`, name: 'echo', arguments: { n } };
      }
    }
    const stream = streamTurn(calls(), { dispatcher, maxConcurrentTools: 4 });
    const first = await stream.next();
    expect(first.value?.toolCallId).toBe('c0');
    await flush(20);
    expect(pulled).toBeLessThan(100);
    let taken = 1;
    for await (const _result of stream) taken += 1;
    expect(taken).toBe(10_000);
  });
});

describe('dispatchCalls (operator)', () => {
  it('dispatches calls as they arrive and emits results in planner order', async () => {
    const tools = gatedTools();
    const calls$ = new Subject<ProposedCall>();
    const collected = new Promise<ToolCallResult[]>((resolve) => {
      calls$.pipe(dispatchCalls({ dispatcher: tools.dispatcher }), toArray()).subscribe(resolve);
    });
    calls$.next(call('read', 'a'));
    calls$.next(call('read', 'b'));
    await tools.arrived('b');
    tools.open('b');
    calls$.next(call('read', 'c'));
    tools.open('c');
    tools.open('a');
    calls$.complete();
    expect((await collected).map((result) => [result.toolCallId, result.emitOrder])).toEqual([
      ['a', 0],
      ['b', 1],
      ['c', 2],
    ]);
  });

  it('cancels running calls when the subscriber unsubscribes', async () => {
    const tools = gatedTools();
    const calls$ = new Subject<ProposedCall>();
    const subscription = calls$.pipe(dispatchCalls({ dispatcher: tools.dispatcher })).subscribe();
    calls$.next(call('read', 'a'));
    await tools.arrived('a');
    subscription.unsubscribe();
    await flush();
    expect(tools.running.size).toBe(0);
  });
});
