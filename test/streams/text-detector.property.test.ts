import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTextDetector, type DetectorEvent } from '../../src/streams/detectors.js';
import { callPiece, splitAt, streamArbitrary, TOOL_NAMES } from './text-detector-arbitraries.js';

/** Everything a stream yields that must not depend on its chunking. */
function outcome(chunks: readonly string[]) {
  const events: DetectorEvent[] = [];
  let counter = 0;
  const detector = createTextDetector({
    toolNames: TOOL_NAMES,
    onEvent: (event) => events.push(event),
    generateCallId: () => `c${++counter}`,
  });
  for (const chunk of chunks) detector.pushText(chunk);
  detector.end();
  const text: { channel: string; text: string }[] = [];
  const candidates: DetectorEvent[] = [];
  for (const event of events) {
    if (event.type !== 'text') {
      candidates.push(event);
      continue;
    }
    const last = text.at(-1);
    if (last?.channel === event.channel) last.text += event.text;
    else text.push({ channel: event.channel, text: event.text });
  }
  return { candidates, text };
}

describe('createTextDetector: the same calls whatever the chunking', () => {
  it('gives the same events for random multi-splits and one-character chunks as for the whole text', () => {
    fc.assert(
      fc.property(streamArbitrary, fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
        const whole = outcome([text]);
        expect(outcome(splitAt(text, cuts))).toEqual(whole);
        expect(outcome([...text])).toEqual(whole);
        expect(whole.text.map((run) => run.text).join('').length).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 150 },
    );
  });

  it('gives the same events when the text is split in two at every boundary', () => {
    fc.assert(
      fc.property(streamArbitrary, (text) => {
        const whole = outcome([text]);
        for (let cut = 0; cut <= text.length; cut += 1) {
          expect(outcome([text.slice(0, cut), text.slice(cut)])).toEqual(whole);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('promotes every well-formed call with its arguments, in text order', () => {
    fc.assert(
      fc.property(
        fc.array(callPiece, { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (pieces, cuts) => {
          const text = pieces.map((piece) => piece.text).join('');
          const promoted = outcome(splitAt(text, cuts)).candidates.flatMap((event) =>
            event.type === 'candidate_promoted'
              ? [{ name: event.call.name, args: event.call.arguments, emitOrder: event.emitOrder }]
              : [],
          );
          expect(promoted).toEqual(
            pieces
              .flatMap((piece) => piece.calls)
              .map((call, emitOrder) => ({ ...call, emitOrder })),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
