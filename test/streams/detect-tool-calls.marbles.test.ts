import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import {
  createNativeDetector,
  createTextDetector,
  type DetectorEvent,
  detectToolCalls,
} from '../../src/streams/detectors.js';
import type { ToolCallDelta } from '../../src/streams/index.js';

function scheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

/** Each event as a short word: `open:read`, `part:{"path":"a`, `call:read#0`, `retract:<reason>`. */
const word = map((event: DetectorEvent): string => {
  switch (event.type) {
    case 'candidate_opened':
      return `open:${event.toolName}`;
    case 'candidate_partial':
      return `part:${event.rawInputPartial}`;
    case 'candidate_promoted':
      return `call:${event.call.name}#${event.emitOrder}`;
    case 'candidate_retracted':
      return `retract:${event.errorCategory}:${event.reason}`;
    case 'provider_native_call':
      return `native:${event.toolName}`;
    case 'text':
      return `text:${event.text}`;
    case 'done':
      return 'done';
  }
});

const deltas: Record<string, ToolCallDelta> = {
  s: { type: 'call_start', key: '0', id: 'c1', name: 'read' },
  t: { type: 'call_start', key: '1', id: 'c2', name: 'read' },
  p: { type: 'call_arguments', key: '0', fragment: '{"path":"a' },
  q: { type: 'call_arguments', key: '0', fragment: '.md"}' },
  r: { type: 'call_arguments', key: '1', fragment: '{"path":"b.md"}' },
  e: { type: 'call_end', key: '0' },
  f: { type: 'call_end', key: '1' },
  x: { type: 'text', text: 'hi' },
  z: { type: 'finish', reason: 'tool_calls', safe: true },
};

describe('detectToolCalls, in marbles', () => {
  it('opens, updates and promotes a native call as its deltas arrive', () => {
    const testScheduler = scheduler();
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('s-p-q-e-z|', deltas);
      const events = source.pipe(
        detectToolCalls((onEvent) =>
          createNativeDetector({
            toolNames: ['read'],
            onEvent,
            coalesceMs: 0,
            scheduler: testScheduler,
          }),
        ),
        word,
      );
      expectObservable(events).toBe('a-b-c-d--|', {
        a: 'open:read',
        b: 'part:{"path":"a',
        c: 'part:{"path":"a.md"}',
        d: 'call:read#0',
      });
      expectSubscriptions(source.subscriptions).toBe('^--------!');
    });
  });

  it('coalesces partial updates on the scheduler it is given', () => {
    const testScheduler = scheduler();
    testScheduler.run(({ cold, expectObservable }) => {
      const source = cold('sp-q-------e|', deltas);
      const events = source.pipe(
        detectToolCalls((onEvent) =>
          createNativeDetector({
            toolNames: ['read'],
            onEvent,
            coalesceMs: 5,
            scheduler: testScheduler,
          }),
        ),
        word,
      );
      // Both fragments fall in one 5-frame window: one update, with the text so far.
      expectObservable(events).toBe('a-----b----c|', {
        a: 'open:read',
        b: 'part:{"path":"a.md"}',
        c: 'call:read#0',
      });
    });
  });

  it('promotes calls in the order they opened, holding a later one that completed first', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('st-r-f-p-q-e----|', deltas);
      const events = source.pipe(
        detectToolCalls((onEvent) =>
          createNativeDetector({ toolNames: ['read'], onEvent, coalesceMs: false }),
        ),
        word,
      );
      expectObservable(events).toBe('ab---------(cd)-|', {
        a: 'open:read',
        b: 'open:read',
        c: 'call:read#0',
        d: 'call:read#1',
      });
    });
  });

  it('passes text through as it arrives', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const events = cold('-x-x|', deltas).pipe(
        detectToolCalls((onEvent) => createNativeDetector({ toolNames: ['read'], onEvent })),
        word,
      );
      expectObservable(events).toBe('-a-a|', { a: 'text:hi' });
    });
  });

  it('retracts a call cut off by the end of the stream before completing', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const events = cold('s-p|', deltas).pipe(
        detectToolCalls((onEvent) =>
          createNativeDetector({ toolNames: ['read'], onEvent, coalesceMs: false }),
        ),
        word,
      );
      expectObservable(events).toBe('a--(b|)', {
        a: 'open:read',
        b: 'retract:parse_aborted:incomplete',
      });
    });
  });

  it('settles open candidates before passing on the source error', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const failure = new Error('stream broke');
      const events = cold('s-p#', deltas, failure).pipe(
        detectToolCalls((onEvent) =>
          createNativeDetector({ toolNames: ['read'], onEvent, coalesceMs: false }),
        ),
        word,
      );
      expectObservable(events).toBe(
        'a--(b#)',
        { a: 'open:read', b: 'retract:parse_aborted:incomplete' },
        failure,
      );
    });
  });

  it('ends the detector silently when unsubscribed: nothing after, the source released', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('s-p-q-e|', deltas);
      const events = source.pipe(
        detectToolCalls((onEvent) =>
          createNativeDetector({ toolNames: ['read'], onEvent, coalesceMs: false }),
        ),
        word,
      );
      expectObservable(events, '---!').toBe('a---', { a: 'open:read' });
      expectSubscriptions(source.subscriptions).toBe('^--!');
    });
  });

  it('retracts a parse-aborted text-mode candidate and goes on detecting after it', () => {
    const text = (value: string): ToolCallDelta => ({ type: 'text', text: value });
    scheduler().run(({ cold, expectObservable }) => {
      const events = cold('a---------b---------|', {
        a: text('read(the docs) first\n'),
        b: text('read({ path: "a" })\n'),
      }).pipe(
        detectToolCalls((onEvent) => createTextDetector({ toolNames: ['read'], onEvent })),
        word,
      );
      expectObservable(events).toBe('(abc)-----(def)-----|', {
        a: 'open:read',
        b: 'retract:parse_aborted:invalid_syntax',
        c: 'text: first\n',
        d: 'open:read',
        e: 'call:read#0',
        f: 'text:\n',
      });
    });
  });
});
