import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProposedCall, ToolCallResult } from '../../src/index.js';
import { dispatchTurn, streamTurn } from '../../src/streams/dispatch-turn.js';
import { dispatchStreamedTurn } from '../../src/streams/streamed-turn.js';
import type { ToolCallDelta } from '../../src/streams/tool-call-delta.js';
import {
  deepArray,
  deepJson,
  hostileArguments,
  hostileCall,
  hostileSetup,
  oddString,
  readableId,
  toolName,
  within,
} from './hostile-call-arbitraries.js';

const BOUND_MS = 5_000;
const RUNS = 60;

/** One result per call, in planner order, each complete and keeping the call's readable id. */
function expectOneResultPerCall(calls: readonly unknown[], results: readonly ToolCallResult[]) {
  expect(results).toHaveLength(calls.length);
  results.forEach((result, index) => {
    expect(result.emitOrder).toBe(index);
    expect(typeof result.ok).toBe('boolean');
    expect(typeof result.status).toBe('string');
    expect(typeof result.observation).toBe('string');
    expect(typeof result.toolCallId).toBe('string');
    const id = readableId(calls[index]);
    if (id !== undefined) expect(result.toolCallId).toBe(id);
  });
}

const turnShape = fc.record({
  calls: fc.array(hostileCall, { minLength: 1, maxLength: 8 }),
  maxConcurrentTools: fc.integer({ min: 1, max: 4 }),
});

describe('hostile calls through the turn engine', () => {
  it('dispatchTurn settles with one result per call, in planner order', async () => {
    await fc.assert(
      fc.asyncProperty(turnShape, async ({ calls, maxConcurrentTools }) => {
        const { dispatcher, executions } = hostileSetup();
        const results = await within(
          dispatchTurn(calls as ProposedCall[], { dispatcher, maxConcurrentTools }),
          BOUND_MS,
          'dispatchTurn',
        );
        expectOneResultPerCall(calls, results);
        expect(executions()).toBeLessThanOrEqual(calls.length);
      }),
      { numRuns: RUNS },
    );
  });

  it('streamTurn yields one result per call, in planner order', async () => {
    await fc.assert(
      fc.asyncProperty(turnShape, async ({ calls, maxConcurrentTools }) => {
        const { dispatcher } = hostileSetup();
        const collect = async () => {
          const results: ToolCallResult[] = [];
          for await (const result of streamTurn(calls as ProposedCall[], {
            dispatcher,
            maxConcurrentTools,
          }))
            results.push(result);
          return results;
        };
        expectOneResultPerCall(calls, await within(collect(), BOUND_MS, 'streamTurn'));
      }),
      { numRuns: RUNS },
    );
  });

  it('answers a resource argument nested thousands deep with schema_violation', async () => {
    const { dispatcher, executions } = hostileSetup();
    const calls: ProposedCall[] = [
      { id: 'text', name: 'write', arguments: deepJson('path', 4_000, 'array') },
      { id: 'object', name: 'write', arguments: { path: deepArray(20_000) } as never },
      { id: 'fine', name: 'write', arguments: { path: 'a.txt' } },
    ];
    const results = await within(dispatchTurn(calls, { dispatcher }), BOUND_MS, 'dispatchTurn');
    expect(results.map((result) => [result.toolCallId, result.status])).toEqual([
      ['text', 'schema_violation'],
      ['object', 'schema_violation'],
      ['fine', 'ok'],
    ]);
    expect(results[0]?.error).toMatch(/nested too deeply \(more than 256 levels\)/);
    expect(executions()).toBe(1);
  });

  it('answers null and calls whose getters throw, keeping the ids it can read', async () => {
    const { dispatcher } = hostileSetup();
    const exploding = Object.defineProperty({ id: 'boom' }, 'name', {
      get() {
        throw new Error('no name for you');
      },
    });
    const results = await within(
      dispatchTurn([null, exploding, { id: 'ok', name: 'read', arguments: {} }] as never, {
        dispatcher,
      }),
      BOUND_MS,
      'dispatchTurn',
    );
    expect(results.map((result) => [result.toolCallId === 'boom', result.status])).toEqual([
      [false, 'schema_violation'],
      [true, 'schema_violation'],
      [false, 'ok'],
    ]);
    expect(results[0]?.observation).toMatch(/the call is null, not an object/);
    expect(results[1]?.observation).toMatch(/reading its `name` threw \(no name for you\)/);
  });
});

interface StreamedCallSpec {
  readonly name: string;
  readonly id: string;
  readonly body: string;
  readonly cuts: readonly number[];
}

const streamedCall: fc.Arbitrary<StreamedCallSpec> = fc.record({
  name: toolName,
  id: fc.string({ minLength: 1, maxLength: 6 }),
  body: fc.oneof(
    hostileArguments.filter((value): value is string => typeof value === 'string'),
    oddString.map((text) => `{"path":${JSON.stringify(text)}}`),
  ),
  cuts: fc.array(fc.nat(), { maxLength: 4 }),
});

function fragments(body: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((cut) => (body.length === 0 ? 0 : cut % body.length)))].sort(
    (a, b) => a - b,
  );
  const pieces: string[] = [];
  let start = 0;
  for (const point of points) {
    if (point > start) pieces.push(body.slice(start, point));
    start = Math.max(start, point);
  }
  pieces.push(body.slice(start));
  return pieces;
}

async function* deltasOf(calls: readonly StreamedCallSpec[]): AsyncGenerator<ToolCallDelta> {
  for (const [index, call] of calls.entries()) {
    const key = `k${index}`;
    yield { type: 'call_start', key, id: call.id, name: call.name };
    for (const fragment of fragments(call.body, call.cuts))
      yield { type: 'call_arguments', key, fragment };
    yield { type: 'call_end', key };
  }
  yield { type: 'finish', reason: 'tool_calls', safe: true };
}

describe('hostile calls through a streamed turn', () => {
  it('dispatchStreamedTurn settles with one result per promoted call, in planner order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(streamedCall, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 4 }),
        async (calls, maxConcurrentTools) => {
          const { dispatcher } = hostileSetup();
          const promoted: string[] = [];
          const turn = await within(
            dispatchStreamedTurn({
              deltas: deltasOf(calls),
              dispatcher,
              maxConcurrentTools,
              coalesceMs: false,
              onDetectorEvent: (event) => {
                if (event.type === 'candidate_promoted') promoted.push(event.call.id ?? '');
              },
            }),
            BOUND_MS,
            'dispatchStreamedTurn',
          );
          expect(turn.outcome).toBe('completed');
          expect(turn.results.map((result) => result.toolCallId)).toEqual(promoted);
          expect(turn.results.map((result) => result.emitOrder)).toEqual(
            turn.results.map((_, index) => index),
          );
        },
      ),
      { numRuns: RUNS },
    );
  });
});
