import {
  createDispatcher,
  createToolRegistry,
  defineTool,
  type ProposedCall,
  type ToolSafety,
} from '../../src/index.js';
import { AsyncQueue } from '../../src/streams/async-queue.js';
import type { ToolCallDelta } from '../../src/streams/index.js';
import { type Deferred, deferred } from '../../src/testing/index.js';

/**
 * A tool whose every call waits at its own gate, so a test decides when each call finishes.
 * Records how many calls run at once and which overlap.
 */
export function gatedTools() {
  const gates = new Map<string, Deferred<unknown>>();
  const started: string[] = [];
  const running = new Set<string>();
  const overlaps: [string, string][] = [];
  let peak = 0;
  const arrived = new Map<string, Deferred<void>>();

  const gateOf = (id: string) => {
    let gate = gates.get(id);
    if (gate === undefined) {
      gate = deferred<unknown>();
      gates.set(id, gate);
    }
    return gate;
  };
  const arrivalOf = (id: string) => {
    let arrival = arrived.get(id);
    if (arrival === undefined) {
      arrival = deferred<void>();
      arrived.set(id, arrival);
    }
    return arrival;
  };

  const handler = async (
    args: { id: string; path?: string; fail?: boolean },
    runtime: { signal: AbortSignal },
  ) => {
    for (const other of running) overlaps.push([other, args.id]);
    running.add(args.id);
    started.push(args.id);
    peak = Math.max(peak, running.size);
    arrivalOf(args.id).resolve();
    try {
      const aborted = new Promise((_, reject) =>
        runtime.signal.addEventListener('abort', () => reject(runtime.signal.reason)),
      );
      const value = await Promise.race([gateOf(args.id).promise, aborted]);
      if (args.fail) throw new Error(`call ${args.id} failed`);
      return value ?? args.id;
    } finally {
      running.delete(args.id);
    }
  };

  const schema = {
    type: 'object',
    properties: { id: { type: 'string' }, path: { type: 'string' }, fail: { type: 'boolean' } },
    required: ['id'],
  } as const;
  const make = (name: string, safety: ToolSafety, extra: object = {}) =>
    defineTool<{ id: string; path?: string; fail?: boolean }, unknown>({
      name,
      description: name,
      inputSchema: schema,
      safety,
      handler,
      ...extra,
    });

  const registry = createToolRegistry([
    make('read', { readOnly: true }),
    make('write', { sideEffectLevel: 'workspace_write' }, { resourceParams: ['path'] }),
    make('git', { sideEffectLevel: 'process_exec' }, { exclusiveLane: 'git' }),
    make('confirm', { readOnly: true, requiresConfirmation: true }),
  ]);
  const dispatcher = createDispatcher({ registry });
  return {
    dispatcher,
    open: (id: string, value?: unknown) => gateOf(id).resolve(value),
    fail: (id: string) => gateOf(id).reject(new Error(`call ${id} failed`)),
    arrived: (id: string) => arrivalOf(id).promise,
    started,
    overlaps,
    running,
    peak: () => peak,
  };
}

export function call(name: string, id: string, extra: Record<string, unknown> = {}): ProposedCall {
  return { id, name, arguments: { id, ...extra } };
}

/** Lets pending promise callbacks run. */
export async function flush(rounds = 5): Promise<void> {
  for (let round = 0; round < rounds; round += 1)
    await new Promise((resolve) => setImmediate(resolve));
}

/** A model stream a test feeds by hand: push deltas, then end or fail it. */
export function deltaFeed() {
  const queue = new AsyncQueue<ToolCallDelta>();
  const iterable: AsyncIterable<ToolCallDelta> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        const delta = await queue.next();
        return delta === undefined
          ? { done: true, value: undefined }
          : { done: false, value: delta };
      },
    }),
  };
  return {
    deltas: iterable,
    push: (...deltas: ToolCallDelta[]) => {
      for (const delta of deltas) queue.push(delta);
    },
    /** One whole native call: start, its arguments in one fragment, end. */
    pushCall: (key: string, name: string, args: Record<string, unknown>) => {
      queue.push({ type: 'call_start', key, id: String(args.id ?? key), name });
      queue.push({ type: 'call_arguments', key, fragment: JSON.stringify(args) });
      queue.push({ type: 'call_end', key });
    },
    finish: (reason = 'tool_calls', safe = true) => {
      queue.push({ type: 'finish', reason, safe });
      queue.end();
    },
    fail: (error: unknown) => queue.end({ error }),
  };
}
