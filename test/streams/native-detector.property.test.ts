import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createNativeDetector, type DetectorEvent } from '../../src/streams/detectors.js';
import type { ToolCallDelta } from '../../src/streams/tool-call-delta.js';
import type { JsonObject } from '../../src/tools/json.js';
import { argsArbitrary, splitAt } from './text-detector-arbitraries.js';

const TOOL_NAMES = ['read', 'write', 'search'];

interface CallSpec {
  readonly name: string;
  readonly providerNative: boolean;
  readonly id: string | undefined;
  /** The argument text the model sends. */
  readonly body: string;
  /** Where the body is cut into fragments. */
  readonly cuts: readonly number[];
}

interface ResponseSpec {
  readonly calls: readonly CallSpec[];
  /** `chat`: calls end at the finish; `blocks`: each call ends with call_end. */
  readonly shape: 'chat' | 'blocks';
  /** Fragments of open calls alternate instead of following one another. */
  readonly interleaved: boolean;
  readonly ending: 'safe' | 'unsafe' | 'none';
}

const callSpec: fc.Arbitrary<CallSpec> = fc.record({
  name: fc.constantFrom('read', 'write', 'search', 'nope'),
  providerNative: fc.integer({ min: 0, max: 9 }).map((draw) => draw < 2),
  id: fc.option(fc.constantFrom('call_x', 'toolu_y'), { nil: undefined }),
  body: fc.oneof(
    { weight: 5, arbitrary: argsArbitrary.map((args) => JSON.stringify(args)) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', '{"a": 1,', '[1, 2]', '"text"', '{"a": tru') },
  ),
  cuts: fc.array(fc.nat(), { maxLength: 6 }),
});

const responseSpec: fc.Arbitrary<ResponseSpec> = fc.record({
  calls: fc
    .array(callSpec, { maxLength: 5 })
    // Provider ids are unique within a response.
    .map((calls) =>
      calls.map((call, index) => ({ ...call, id: call.id && `${call.id}_${index}` })),
    ),
  shape: fc.constantFrom('chat', 'blocks'),
  interleaved: fc.boolean(),
  ending: fc.constantFrom('safe', 'unsafe', 'none'),
});

/** The deltas of a response, each call's body cut into fragments (or sent whole). */
function deltasOf(spec: ResponseSpec, fragmented: boolean): ToolCallDelta[] {
  const deltas: ToolCallDelta[] = [{ type: 'text', text: 'Working on it.' }];
  const fragments = spec.calls.map((call) =>
    fragmented ? splitAt(call.body, call.cuts) : [call.body],
  );
  const start = (call: CallSpec, index: number): ToolCallDelta => ({
    type: 'call_start',
    key: String(index),
    name: call.name,
    ...(call.id === undefined ? {} : { id: call.id }),
    ...(call.providerNative ? { providerNative: true } : {}),
  });
  const end = (index: number): ToolCallDelta[] =>
    spec.shape === 'blocks' ? [{ type: 'call_end', key: String(index) }] : [];
  if (spec.interleaved) {
    spec.calls.forEach((call, index) => {
      deltas.push(start(call, index));
    });
    const longest = Math.max(0, ...fragments.map((list) => list.length));
    for (let round = 0; round < longest; round += 1) {
      fragments.forEach((list, index) => {
        const fragment = list[round];
        if (fragment !== undefined)
          deltas.push({ type: 'call_arguments', key: String(index), fragment });
      });
    }
    for (let index = spec.calls.length - 1; index >= 0; index -= 1) deltas.push(...end(index));
  } else {
    spec.calls.forEach((call, index) => {
      deltas.push(start(call, index));
      for (const fragment of fragments[index] ?? []) {
        deltas.push({ type: 'call_arguments', key: String(index), fragment });
      }
      deltas.push(...end(index));
    });
  }
  if (spec.ending !== 'none') {
    deltas.push({
      type: 'finish',
      reason: spec.ending === 'safe' ? 'tool_calls' : 'length',
      safe: spec.ending === 'safe',
    });
  }
  return deltas;
}

/** Every event except partial updates, which depend on timing and chunking by design. */
function outcome(deltas: readonly ToolCallDelta[], coalesceMs: 0 | false): DetectorEvent[] {
  const events: DetectorEvent[] = [];
  let counter = 0;
  const detector = createNativeDetector({
    toolNames: TOOL_NAMES,
    onEvent: (event) => events.push(event),
    coalesceMs,
    generateCallId: () => `gen_${++counter}`,
  });
  for (const delta of deltas) detector.push(delta);
  detector.end();
  return events.filter((event) => event.type !== 'candidate_partial');
}

/**
 * What each call must come to, computed from the spec alone: every whole call is promoted (its
 * arguments parsed when they are a JSON object, else the text as it came), a call cut off is
 * retracted, a provider-native call is neither.
 */
function expected(spec: ResponseSpec) {
  const promoted: { id: string; name: string; args: JsonObject | string; emitOrder: number }[] = [];
  const retracted: { id: string; reason: string }[] = [];
  const closed = spec.shape === 'blocks' || spec.ending === 'safe';
  let generated = 0;
  spec.calls.forEach((call) => {
    const id = call.id ?? `gen_${++generated}`;
    if (!closed) {
      retracted.push({ id, reason: spec.ending === 'unsafe' ? 'cut_off' : 'incomplete' });
    } else if (!call.providerNative) {
      promoted.push({
        id,
        name: call.name,
        args: argumentsOf(call.body),
        emitOrder: promoted.length,
      });
    }
  });
  return { promoted, retracted };
}

function argumentsOf(body: string): JsonObject | string {
  if (body.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as JsonObject)
      : body;
  } catch {
    return body;
  }
}

describe('createNativeDetector: the same calls whatever the chunking', () => {
  it('promotes and retracts exactly what the calls warrant, however their arguments are fragmented', () => {
    fc.assert(
      fc.property(responseSpec, (spec) => {
        const whole = outcome(deltasOf(spec, false), false);
        expect(outcome(deltasOf(spec, true), false)).toEqual(whole);
        expect(outcome(deltasOf(spec, true), 0)).toEqual(whole);
        const want = expected(spec);
        expect(
          whole.flatMap((event) =>
            event.type === 'candidate_promoted'
              ? [
                  {
                    id: event.call.id,
                    name: event.call.name,
                    args: event.call.arguments,
                    emitOrder: event.emitOrder,
                  },
                ]
              : [],
          ),
        ).toEqual(want.promoted);
        expect(
          whole
            .flatMap((event) => (event.type === 'candidate_retracted' ? [event] : []))
            .map((event) => ({ id: event.toolCallId, reason: event.reason }))
            .sort((a, b) => a.id.localeCompare(b.id)),
        ).toEqual([...want.retracted].sort((a, b) => a.id.localeCompare(b.id)));
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same events for one-character fragments and for every two-way split', () => {
    fc.assert(
      fc.property(responseSpec, (spec) => {
        const whole = outcome(deltasOf(spec, false), false);
        const oneCharacter = {
          ...spec,
          calls: spec.calls.map((call) => ({
            ...call,
            cuts: [...call.body].map((_, index) => index),
          })),
        };
        expect(outcome(deltasOf(oneCharacter, true), false)).toEqual(whole);
        const longest = Math.max(0, ...spec.calls.map((call) => call.body.length));
        for (let cut = 0; cut <= longest; cut += 1) {
          const split = { ...spec, calls: spec.calls.map((call) => ({ ...call, cuts: [cut] })) };
          expect(outcome(deltasOf(split, true), false)).toEqual(whole);
        }
      }),
      { numRuns: 60 },
    );
  });
});
