import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createNativeDetector,
  createTextDetector,
  type DetectorEvent,
} from '../../src/streams/detectors.js';
import { parseTextCall } from '../../src/streams/text-call-parser.js';
import type { ToolCallDelta } from '../../src/streams/tool-call-delta.js';
import { splitAt, TOOL_NAMES, unsettled } from './text-detector-arbitraries.js';

function textEvents(chunks: readonly string[]): DetectorEvent[] {
  const events: DetectorEvent[] = [];
  let counter = 0;
  const detector = createTextDetector({
    toolNames: TOOL_NAMES,
    onEvent: (event) => events.push(event),
    generateCallId: () => `c${++counter}`,
  });
  for (const chunk of chunks) detector.pushText(chunk);
  detector.end();
  return events;
}

/** Only the calls' fates, which must not depend on chunking (text runs may split differently). */
function fates(events: readonly DetectorEvent[]) {
  return events.filter((event) => event.type !== 'text');
}

const nest = (open: string, close: string, depth: number, inner = '') =>
  `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

describe('the text detector ends every candidate, whatever the model writes', () => {
  it.each([
    ['a bare call', (body: string) => `t({a: ${body}})\n`],
    ['a tagged call', (body: string) => `<tool_call>\nt({a: ${body}})\n</tool_call>\n`],
    ['a call the text cuts off', (body: string) => `t({a: ${body}`],
  ])('settles %s with arguments nested 4,000 and 100,000 deep in relaxed syntax', (_, call) => {
    for (const depth of [4_000, 100_000]) {
      for (const body of [
        nest('[', ']', depth),
        nest('{k: ', '}', depth, '1'),
        nest('[{x: ', '}]', depth, "'s'"),
      ]) {
        const events: DetectorEvent[] = [];
        const detector = createTextDetector({
          toolNames: ['t'],
          onEvent: (event) => events.push(event),
        });
        detector.pushText(call(body));
        detector.end();
        expect(events.filter((event) => event.type === 'candidate_opened')).toHaveLength(1);
        expect(unsettled(events)).toEqual([]);
      }
    }
  });

  it('promotes deep relaxed arguments with their exact shape', () => {
    const depth = 4_000;
    const parsed = parseTextCall(`t({a: ${nest('[', ']', depth)}, b: 'x',})`);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    let level: unknown = parsed.arguments.a;
    for (let index = 0; index < depth - 1; index += 1) {
      expect(Array.isArray(level) && level.length === 1).toBe(true);
      level = (level as unknown[])[0];
    }
    expect(level).toEqual([]);
    expect(parsed.arguments.b).toBe('x');
  });

  const hostile = fc
    .array(
      fc.oneof(
        fc.constantFrom(
          'read(',
          'edit({',
          'run({ a: ',
          '<tool_call>',
          '</tool_call>',
          '<tool_call>read(',
          '\n',
          '{',
          '}',
          '[',
          ']',
          '(',
          ')',
          ',',
          ':',
          '"',
          "'",
          '`',
          '\\',
          '\\u12',
          '<<EOF\n',
          '\nEOF\n',
          '//',
          '/*',
          '*/',
          '```\n',
          '<user_response>',
          '</user_response>',
          '<done>',
          '</done>',
          'undefined',
          'tru',
          '-1e',
          '\uD800',
          '😀',
        ),
        fc.string({ maxLength: 6 }),
        fc.nat({ max: 3000 }).map((depth) => nest('[', ']', depth)),
        fc.nat({ max: 3000 }).map((depth) => '{a:'.repeat(depth)),
      ),
      { maxLength: 30 },
    )
    .map((parts) => parts.join(''));

  it('never throws, ends every candidate, and gives the same calls however the text is chunked', () => {
    fc.assert(
      fc.property(hostile, fc.array(fc.nat(), { maxLength: 10 }), (text, cuts) => {
        const whole = textEvents([text]);
        expect(unsettled(whole)).toEqual([]);
        const split = textEvents(splitAt(text, cuts));
        expect(unsettled(split)).toEqual([]);
        expect(fates(split)).toEqual(fates(whole));
      }),
      { numRuns: 300 },
    );
  });
});

const nativeDelta: fc.Arbitrary<ToolCallDelta> = fc.oneof(
  fc.record({
    type: fc.constant('call_start' as const),
    key: fc.constantFrom('0', '1', '2'),
    name: fc.constantFrom('read', 'edit', 'nope', ''),
    providerNative: fc.boolean(),
  }),
  fc.record({
    type: fc.constant('call_arguments' as const),
    key: fc.constantFrom('0', '1', '2', '9'),
    fragment: fc.oneof(
      fc.constantFrom('{', '}', '"a":', '1', ',', '[', ']', '"', '\\', 'null', ''),
      fc.string({ maxLength: 5 }),
      fc.nat({ max: 5000 }).map((depth) => nest('[', ']', depth)),
    ),
  }),
  fc.record({
    type: fc.constant('call_end' as const),
    key: fc.constantFrom('0', '1', '2'),
  }),
  fc.record({ type: fc.constant('text' as const), text: fc.string({ maxLength: 4 }) }),
  fc.record({
    type: fc.constant('finish' as const),
    reason: fc.constantFrom('stop', 'length'),
    safe: fc.boolean(),
  }),
);

describe('the native detector ends every candidate, whatever the deltas', () => {
  it('never throws and settles each opened call exactly once', () => {
    fc.assert(
      fc.property(fc.array(nativeDelta, { maxLength: 25 }), (deltas) => {
        const events: DetectorEvent[] = [];
        const detector = createNativeDetector({
          toolNames: ['read', 'edit'],
          onEvent: (event) => events.push(event),
          coalesceMs: 0,
        });
        for (const delta of deltas) detector.push(delta);
        detector.end();
        expect(unsettled(events)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
