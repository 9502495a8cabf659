import { from, Observable, toArray } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { InvalidOptionError } from '../../src/errors.js';
import {
  type CandidatePromotedEvent,
  type CandidateRetractedEvent,
  createNativeDetector,
  type DetectorEvent,
  detectToolCalls,
  type NativeDetectorOptions,
  type PartialUpdateScheduler,
} from '../../src/streams/detectors.js';
import type { ToolCallDelta } from '../../src/streams/tool-call-delta.js';

/** Time that moves only when a test says so. */
class ManualScheduler implements PartialUpdateScheduler {
  now = 0;
  readonly delays: number[] = [];
  private readonly tasks: { at: number; work: () => void; cancelled: boolean }[] = [];

  schedule(work: () => void, delay: number): { unsubscribe(): void } {
    const task = { at: this.now + delay, work, cancelled: false };
    this.tasks.push(task);
    this.delays.push(delay);
    return {
      unsubscribe: () => {
        task.cancelled = true;
      },
    };
  }

  /** Runs every task due within the next `ms` milliseconds, in time order. */
  advance(ms: number): void {
    const target = this.now + ms;
    for (;;) {
      const due = this.tasks
        .filter((task) => !task.cancelled && task.at <= target)
        .sort((a, b) => a.at - b.at)[0];
      if (due === undefined) break;
      due.cancelled = true;
      this.now = due.at;
      due.work();
    }
    this.now = target;
  }

  get pending(): number {
    return this.tasks.filter((task) => !task.cancelled).length;
  }
}

function detector(options: Partial<NativeDetectorOptions> = {}) {
  const events: DetectorEvent[] = [];
  let counter = 0;
  const instance = createNativeDetector({
    toolNames: ['read', 'write', 'search'],
    onEvent: (event) => events.push(event),
    coalesceMs: false,
    generateCallId: () => `gen_${++counter}`,
    ...options,
  });
  const feed = (deltas: readonly ToolCallDelta[]) => {
    for (const delta of deltas) instance.push(delta);
    return events;
  };
  return { events, detector: instance, feed };
}

function opened(toolCallId: string, toolName: string, providerNative = false): DetectorEvent {
  return {
    type: 'candidate_opened',
    toolCallId,
    toolName,
    source: 'native',
    status: 'pending',
    parsing: true,
    providerNative,
  };
}

function promoted(
  toolCallId: string,
  toolName: string,
  args: Record<string, unknown> | string,
  emitOrder: number,
  rawInput: string,
): CandidatePromotedEvent {
  return {
    type: 'candidate_promoted',
    toolCallId,
    toolName,
    source: 'native',
    status: 'pending',
    parsing: false,
    call: { id: toolCallId, name: toolName, arguments: args as never },
    emitOrder,
    rawInput,
  };
}

function retracted(events: readonly DetectorEvent[]): CandidateRetractedEvent[] {
  return events.filter(
    (event): event is CandidateRetractedEvent => event.type === 'candidate_retracted',
  );
}

const typesOf = (events: readonly DetectorEvent[]) => events.map((event) => event.type);

describe('createNativeDetector: provider shapes', () => {
  it('promotes Chat Completions calls, which end only at the finish, in the order they opened', () => {
    const { feed } = detector();
    const events = feed([
      { type: 'call_start', key: '0', id: 'call_a', name: 'read' },
      { type: 'call_arguments', key: '0', fragment: '{"path": ' },
      { type: 'call_arguments', key: '0', fragment: '"a.md"}' },
      { type: 'call_start', key: '1', id: 'call_b', name: 'search' },
      { type: 'call_arguments', key: '1', fragment: '{"q": "x"}' },
      { type: 'finish', reason: 'tool_calls', safe: true },
      { type: 'usage', inputTokens: 10, outputTokens: 20 },
    ]);
    expect(events).toEqual([
      opened('call_a', 'read'),
      opened('call_b', 'search'),
      promoted('call_a', 'read', { path: 'a.md' }, 0, '{"path": "a.md"}'),
      promoted('call_b', 'search', { q: 'x' }, 1, '{"q": "x"}'),
    ]);
  });

  it('promotes each Responses call when its item closes, preferring the full arguments of call_end', () => {
    const { feed } = detector();
    const events = feed([
      { type: 'call_start', key: 'fc_1', id: 'call_r1', name: 'read' },
      { type: 'call_arguments', key: 'fc_1', fragment: '{"path"' },
      { type: 'call_arguments', key: 'fc_1', fragment: ': "a.md"}' },
      { type: 'call_end', key: 'fc_1', arguments: '{"path": "a.md"}' },
    ]);
    expect(events).toEqual([
      opened('call_r1', 'read'),
      promoted('call_r1', 'read', { path: 'a.md' }, 0, '{"path": "a.md"}'),
    ]);
    feed([
      { type: 'call_start', key: 'fc_2', id: 'call_r2', name: 'write' },
      { type: 'call_arguments', key: 'fc_2', fragment: '{"path": "b.md", "body": "hi"}' },
      { type: 'call_end', key: 'fc_2' },
      { type: 'finish', reason: 'completed', safe: true },
    ]);
    expect(events.slice(2)).toEqual([
      opened('call_r2', 'write'),
      promoted(
        'call_r2',
        'write',
        { path: 'b.md', body: 'hi' },
        1,
        '{"path": "b.md", "body": "hi"}',
      ),
    ]);
  });

  it('passes Anthropic text through and promotes tool_use blocks at content_block_stop', () => {
    const { feed } = detector();
    const events = feed([
      { type: 'text', text: 'Let me check.' },
      { type: 'call_start', key: '1', id: 'toolu_01', name: 'read' },
      { type: 'call_arguments', key: '1', fragment: '' },
      { type: 'call_arguments', key: '1', fragment: '{"path": "a' },
      { type: 'call_arguments', key: '1', fragment: '.md"}' },
      { type: 'call_end', key: '1' },
      { type: 'finish', reason: 'tool_use', safe: true },
    ]);
    expect(events).toEqual([
      { type: 'text', text: 'Let me check.', channel: 'prose' },
      opened('toolu_01', 'read'),
      promoted('toolu_01', 'read', { path: 'a.md' }, 0, '{"path": "a.md"}'),
    ]);
  });

  it('reads a call closed without any argument text as {} (how Anthropic streams a tool without input)', () => {
    const { feed } = detector();
    const events = feed([
      { type: 'call_start', key: '0', id: 'toolu_02', name: 'search' },
      { type: 'call_end', key: '0' },
    ]);
    expect(events.at(-1)).toEqual(promoted('toolu_02', 'search', {}, 0, ''));
  });

  it('gives a call without a provider id a generated id, shared by every event and the call', () => {
    const { feed } = detector();
    const events = feed([
      { type: 'call_start', key: '0', name: 'read' },
      { type: 'call_arguments', key: '0', fragment: '{}' },
      { type: 'finish', reason: 'stop', safe: true },
    ]);
    expect(events).toEqual([opened('gen_1', 'read'), promoted('gen_1', 'read', {}, 0, '{}')]);
  });

  it('accepts provider-safe aliases through resolveName and promotes the canonical name', () => {
    const { feed } = detector({
      toolNames: ['fs.read'],
      resolveName: (name) => (name === 'fs_read' ? 'fs.read' : undefined),
    });
    const events = feed([
      { type: 'call_start', key: '0', id: 'c1', name: 'fs_read' },
      { type: 'call_arguments', key: '0', fragment: '{"path":"a"}' },
      { type: 'call_end', key: '0' },
    ]);
    expect(events).toEqual([
      opened('c1', 'fs.read'),
      promoted('c1', 'fs.read', { path: 'a' }, 0, '{"path":"a"}'),
    ]);
  });
});

describe('createNativeDetector: retraction', () => {
  it('retracts a call whose stream ends without a finish, and never promotes it', () => {
    const { feed, detector: instance } = detector();
    const events = feed([
      { type: 'call_start', key: '0', id: 'c1', name: 'write' },
      { type: 'call_arguments', key: '0', fragment: '{"path": "a.md", "body": "hel' },
    ]);
    instance.end();
    instance.end();
    expect(events).toEqual([
      opened('c1', 'write'),
      {
        type: 'candidate_retracted',
        toolCallId: 'c1',
        toolName: 'write',
        source: 'native',
        status: 'failed',
        parsing: false,
        errorCategory: 'parse_aborted',
        reason: 'incomplete',
        error:
          "The response ended before the arguments of the call to 'write' were complete; the call was not run. Call the tool again with complete arguments.",
        rawInput: '{"path": "a.md", "body": "hel',
      },
    ]);
  });

  it('retracts calls still open at an unsafe finish even when their text happens to parse', () => {
    const { feed } = detector();
    const events = feed([
      { type: 'call_start', key: '0', id: 'c1', name: 'read' },
      { type: 'call_arguments', key: '0', fragment: '{"path": "a.md"}' },
      { type: 'call_end', key: '0' },
      { type: 'call_start', key: '1', id: 'c2', name: 'write' },
      { type: 'call_arguments', key: '1', fragment: '{"path": "b.md"}' },
      { type: 'finish', reason: 'length', safe: false },
    ]);
    expect(typesOf(events)).toEqual([
      'candidate_opened',
      'candidate_promoted',
      'candidate_opened',
      'candidate_retracted',
    ]);
    const [cut] = retracted(events);
    expect(cut).toMatchObject({
      toolCallId: 'c2',
      reason: 'cut_off',
      rawInput: '{"path": "b.md"}',
    });
    expect(cut?.error).toBe(
      "The response was cut off (finish reason 'length') before the arguments of the call to 'write' were complete; the call was not run. Call the tool again; if its arguments are long, split the work into smaller calls.",
    );
  });

  it('promotes a whole call whose arguments are not JSON with the text as it came, for the dispatcher to refuse', () => {
    const { feed } = detector();
    const events = feed([
      { type: 'call_start', key: '0', id: 'c1', name: 'read' },
      { type: 'call_arguments', key: '0', fragment: '{"path": "a.md",}' },
      { type: 'call_end', key: '0' },
    ]);
    expect(retracted(events)).toEqual([]);
    expect(events.at(-1)).toEqual(
      promoted('c1', 'read', '{"path": "a.md",}', 0, '{"path": "a.md",}'),
    );
  });

  it('promotes arguments that are valid JSON but not an object as their text', () => {
    const { feed } = detector();
    const events = feed([
      { type: 'call_start', key: '0', id: 'c1', name: 'read' },
      { type: 'call_arguments', key: '0', fragment: '["a.md"]' },
      { type: 'finish', reason: 'tool_calls', safe: true },
    ]);
    expect(events.at(-1)).toEqual(promoted('c1', 'read', '["a.md"]', 0, '["a.md"]'));
  });

  it('promotes a whole call to an unknown tool under the name it used, in the order it opened', () => {
    const { feed } = detector();
    const events = feed([
      { type: 'call_start', key: '0', id: 'c1', name: 'multi_tool_use.parallel' },
      { type: 'call_arguments', key: '0', fragment: '{"tool_uses": []}' },
      { type: 'call_start', key: '1', id: 'c2', name: 'read' },
      { type: 'call_arguments', key: '1', fragment: '{"path": "a"}' },
      { type: 'finish', reason: 'tool_calls', safe: true },
    ]);
    expect(events).toEqual([
      opened('c1', 'multi_tool_use.parallel'),
      opened('c2', 'read'),
      promoted('c1', 'multi_tool_use.parallel', { tool_uses: [] }, 0, '{"tool_uses": []}'),
      promoted('c2', 'read', { path: 'a' }, 1, '{"path": "a"}'),
    ]);
  });

  it('retracts a call to an unknown tool that was cut off: it was never whole', () => {
    const { feed } = detector();
    const events = feed([
      { type: 'call_start', key: '0', id: 'c1', name: 'nope' },
      { type: 'call_arguments', key: '0', fragment: '{"a": 1' },
      { type: 'finish', reason: 'length', safe: false },
    ]);
    expect(retracted(events).map((event) => [event.toolCallId, event.reason])).toEqual([
      ['c1', 'cut_off'],
    ]);
  });

  it('holds a completed call until every call that opened before it is settled', () => {
    const { feed } = detector();
    const events = feed([
      { type: 'call_start', key: 'a', id: 'A', name: 'read' },
      { type: 'call_start', key: 'b', id: 'B', name: 'write' },
      { type: 'call_arguments', key: 'b', fragment: '{"path": "b"}' },
      { type: 'call_end', key: 'b' },
    ]);
    expect(typesOf(events)).toEqual(['candidate_opened', 'candidate_opened']);
    feed([
      { type: 'call_arguments', key: 'a', fragment: '{"path": "a"}' },
      { type: 'call_end', key: 'a' },
    ]);
    expect(events.slice(2)).toEqual([
      promoted('A', 'read', { path: 'a' }, 0, '{"path": "a"}'),
      promoted('B', 'write', { path: 'b' }, 1, '{"path": "b"}'),
    ]);
  });

  it('releases a held call with emitOrder 0 when the call before it is retracted', () => {
    const { feed, detector: instance } = detector();
    const events = feed([
      { type: 'call_start', key: 'a', id: 'A', name: 'read' },
      { type: 'call_arguments', key: 'a', fragment: '{"pa' },
      { type: 'call_start', key: 'b', id: 'B', name: 'write' },
      { type: 'call_arguments', key: 'b', fragment: '{}' },
      { type: 'call_end', key: 'b' },
    ]);
    instance.end();
    expect(events.slice(2)).toEqual([
      expect.objectContaining({
        type: 'candidate_retracted',
        toolCallId: 'A',
        reason: 'incomplete',
      }),
      promoted('B', 'write', {}, 0, '{}'),
    ]);
  });
});

describe('createNativeDetector: provider-native calls and protocol slips', () => {
  it('records provider-native calls without promoting them or giving them an emitOrder', () => {
    const { feed } = detector();
    const events = feed([
      { type: 'call_start', key: 'ts', id: 'ts_1', name: 'tool_search', providerNative: true },
      { type: 'call_arguments', key: 'ts', fragment: '{"query": "weather"}' },
      { type: 'call_end', key: 'ts' },
      { type: 'call_start', key: '1', id: 'c1', name: 'read' },
      { type: 'call_arguments', key: '1', fragment: '{}' },
      { type: 'finish', reason: 'completed', safe: true },
    ]);
    expect(events).toEqual([
      opened('ts_1', 'tool_search', true),
      {
        type: 'provider_native_call',
        toolCallId: 'ts_1',
        toolName: 'tool_search',
        source: 'native',
        rawInput: '{"query": "weather"}',
        input: { query: 'weather' },
      },
      opened('c1', 'read'),
      promoted('c1', 'read', {}, 0, '{}'),
    ]);
  });

  it('retracts a provider-native call cut off by an unsafe finish instead of recording it', () => {
    const { feed } = detector();
    const events = feed([
      { type: 'call_start', key: 'ts', id: 'ts_1', name: 'tool_search', providerNative: true },
      { type: 'call_arguments', key: 'ts', fragment: '{"query": "wea' },
      { type: 'finish', reason: 'max_tokens', safe: false },
    ]);
    expect(typesOf(events)).toEqual(['candidate_opened', 'candidate_retracted']);
    expect(retracted(events)[0]).toMatchObject({ toolName: 'tool_search', reason: 'cut_off' });
  });

  it('ignores repeated starts, deltas for keys that never opened, and call deltas after the finish', () => {
    const { feed } = detector();
    const events = feed([
      { type: 'call_arguments', key: 'ghost', fragment: '{}' },
      { type: 'call_end', key: 'ghost' },
      { type: 'call_start', key: '0', id: 'c1', name: 'read' },
      { type: 'call_start', key: '0', id: 'c1', name: 'read' },
      { type: 'call_arguments', key: '0', fragment: '{"path": "a"}' },
      { type: 'finish', reason: 'stop', safe: true },
      { type: 'call_start', key: '1', id: 'c2', name: 'read' },
      { type: 'call_arguments', key: '0', fragment: 'junk' },
      { type: 'finish', reason: 'length', safe: false },
    ]);
    expect(events).toEqual([
      opened('c1', 'read'),
      promoted('c1', 'read', { path: 'a' }, 0, '{"path": "a"}'),
    ]);
  });
});

describe('createNativeDetector: coalesced partial updates', () => {
  it('sends at most one partial update per call per window, with the text so far and a preview', () => {
    const scheduler = new ManualScheduler();
    const { feed, events } = detector({ coalesceMs: 50, scheduler });
    feed([
      { type: 'call_start', key: '0', id: 'c1', name: 'write' },
      { type: 'call_arguments', key: '0', fragment: '{"path": "a.md", ' },
    ]);
    scheduler.advance(10);
    feed([{ type: 'call_arguments', key: '0', fragment: '"body": "hel' }]);
    scheduler.advance(39);
    expect(typesOf(events)).toEqual(['candidate_opened']);
    scheduler.advance(1);
    expect(events.slice(1)).toEqual([
      {
        type: 'candidate_partial',
        toolCallId: 'c1',
        toolName: 'write',
        source: 'native',
        status: 'pending',
        parsing: true,
        rawInputPartial: '{"path": "a.md", "body": "hel',
        partialInput: { path: 'a.md', body: 'hel' },
      },
    ]);
    expect(scheduler.delays).toEqual([50]);
    scheduler.advance(200);
    expect(events).toHaveLength(2);
    feed([{ type: 'call_arguments', key: '0', fragment: 'lo"}' }]);
    scheduler.advance(50);
    expect(events.at(-1)).toMatchObject({
      type: 'candidate_partial',
      rawInputPartial: '{"path": "a.md", "body": "hello"}',
      partialInput: { path: 'a.md', body: 'hello' },
    });
  });

  it('drops a pending partial update once the call is promoted, and cancels the timer at the finish', () => {
    const scheduler = new ManualScheduler();
    const { feed, events } = detector({ coalesceMs: 50, scheduler });
    feed([
      { type: 'call_start', key: '0', id: 'c1', name: 'read' },
      { type: 'call_arguments', key: '0', fragment: '{"path": "a"}' },
      { type: 'call_end', key: '0' },
      { type: 'call_start', key: '1', id: 'c2', name: 'read' },
      { type: 'call_arguments', key: '1', fragment: '{"path": "b"}' },
    ]);
    expect(scheduler.pending).toBe(1);
    feed([{ type: 'finish', reason: 'tool_calls', safe: true }]);
    expect(scheduler.pending).toBe(0);
    scheduler.advance(100);
    expect(typesOf(events)).not.toContain('candidate_partial');
  });

  it('coalesces with the default 50 ms window on real time when no scheduler is given', () => {
    vi.useFakeTimers();
    try {
      const events: DetectorEvent[] = [];
      const instance = createNativeDetector({
        toolNames: ['read'],
        onEvent: (e) => events.push(e),
      });
      instance.push({ type: 'call_start', key: '0', id: 'c1', name: 'read' });
      instance.push({ type: 'call_arguments', key: '0', fragment: '{"path"' });
      vi.advanceTimersByTime(49);
      expect(typesOf(events)).toEqual(['candidate_opened']);
      vi.advanceTimersByTime(1);
      expect(events.at(-1)).toMatchObject({ type: 'candidate_partial', partialInput: {} });
      instance.end();
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends one partial update per fragment with coalesceMs 0, and none with coalesceMs false', () => {
    const eager = detector({ coalesceMs: 0 });
    eager.feed([
      { type: 'call_start', key: '0', id: 'c1', name: 'read' },
      { type: 'call_arguments', key: '0', fragment: '{"a": [1' },
      { type: 'call_arguments', key: '0', fragment: ', 2' },
    ]);
    expect(
      eager.events.flatMap((event) =>
        event.type === 'candidate_partial' ? [event.partialInput] : [],
      ),
    ).toEqual([{ a: [1] }, { a: [1, 2] }]);
    const silent = detector({ coalesceMs: false });
    silent.feed([
      { type: 'call_start', key: '0', id: 'c1', name: 'read' },
      { type: 'call_arguments', key: '0', fragment: '{"a": 1}' },
    ]);
    expect(typesOf(silent.events)).toEqual(['candidate_opened']);
  });
});

describe('createNativeDetector: options', () => {
  const onEvent = () => {};
  it.each([
    ['toolNames', { onEvent }],
    ['toolNames', { toolNames: 'read', onEvent }],
    ['toolNames', { toolNames: ['read', ''], onEvent }],
    ['onEvent', { toolNames: ['read'] }],
    ['resolveName', { toolNames: ['read'], onEvent, resolveName: 'x' }],
    ['generateCallId', { toolNames: ['read'], onEvent, generateCallId: 1 }],
    ['coalesceMs', { toolNames: ['read'], onEvent, coalesceMs: -1 }],
    ['coalesceMs', { toolNames: ['read'], onEvent, coalesceMs: Number.NaN }],
    ['scheduler', { toolNames: ['read'], onEvent, scheduler: {} }],
  ])('refuses an invalid %s', (option, options) => {
    let error: unknown;
    try {
      createNativeDetector(options as unknown as NativeDetectorOptions);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error).toMatchObject({ code: 'SY_ERR_INVALID_OPTION', option });
  });
});

describe('detectToolCalls', () => {
  const create = (onEvent: (event: DetectorEvent) => void) =>
    createNativeDetector({
      toolNames: ['read'],
      onEvent,
      coalesceMs: false,
      generateCallId: () => 'g1',
    });

  it('ends the detector when the source completes, so open calls are retracted before completion', async () => {
    const deltas: ToolCallDelta[] = [
      { type: 'call_start', key: '0', name: 'read' },
      { type: 'call_arguments', key: '0', fragment: '{"pa' },
    ];
    const events = await new Promise<DetectorEvent[]>((resolve, reject) =>
      from(deltas)
        .pipe(detectToolCalls(create), toArray())
        .subscribe({ next: resolve, error: reject }),
    );
    expect(typesOf(events)).toEqual(['candidate_opened', 'candidate_retracted']);
  });

  it('cancels a pending partial update when the subscriber unsubscribes', () => {
    const scheduler = new ManualScheduler();
    const seen: string[] = [];
    const open = new Observable<ToolCallDelta>((subscriber) => {
      subscriber.next({ type: 'call_start', key: '0', name: 'read' });
      subscriber.next({ type: 'call_arguments', key: '0', fragment: '{"path": "a' });
    });
    const subscription = open
      .pipe(
        detectToolCalls((onEvent) =>
          createNativeDetector({ toolNames: ['read'], onEvent, coalesceMs: 50, scheduler }),
        ),
      )
      .subscribe((event) => seen.push(event.type));
    expect(scheduler.pending).toBe(1);
    subscription.unsubscribe();
    expect(scheduler.pending).toBe(0);
    scheduler.advance(100);
    expect(seen).toEqual(['candidate_opened']);
  });

  it('settles open calls before passing a source error on', () => {
    const seen: string[] = [];
    const failing = new Observable<ToolCallDelta>((subscriber) => {
      subscriber.next({ type: 'call_start', key: '0', name: 'read' });
      subscriber.error(new Error('stream broke'));
    });
    failing.pipe(detectToolCalls(create)).subscribe({
      next: (event) => seen.push(event.type),
      error: (error: Error) => seen.push(`error: ${error.message}`),
    });
    expect(seen).toEqual(['candidate_opened', 'candidate_retracted', 'error: stream broke']);
  });
});
