import { getEventListeners } from 'node:events';
import { expect } from 'vitest';
import {
  composeToolCallers,
  createDispatcher,
  createToolRegistry,
  defineTool,
  type ToolRuntime,
  withAuditLog,
} from '../../src/index.js';

/** One call of a campaign step as the model sends it, and how it must end. */
export interface CampaignCall {
  readonly id: string;
  readonly name: string;
  /** The argument text, JSON or not. */
  readonly input: string;
  /** The error category of its receipt, `ok` for none. */
  readonly expected: string;
}

/** The faults a campaign mixes, each with the call that provokes it and the status it yields. */
const FAULTS: readonly ((index: number) => Omit<CampaignCall, 'id'>)[] = [
  (index) => ({ name: 'echo', input: `{"n":${index}}`, expected: 'ok' }),
  (index) => ({ name: `made_up_${index}`, input: '{}', expected: 'tool_not_found' }),
  (index) => ({ name: 'echo', input: `{"n":${index},`, expected: 'schema_violation' }),
  () => ({ name: 'echo', input: '{"n":"seven"}', expected: 'schema_violation' }),
  (index) => ({ name: 'fail', input: `{"n":${index}}`, expected: 'tool_error' }),
  () => ({ name: 'hang', input: '{}', expected: 'timeout' }),
  (index) => ({ name: 'slow', input: `{"ticks":${1 + (index % 5)}}`, expected: 'ok' }),
  () => ({ name: 'abort', input: '{}', expected: 'cancelled' }),
];

/** A time limit short enough to end the hanging calls quickly, long enough to never end the others. */
const HANG_LIMIT_MS = 25;

/**
 * `count` calls mixing every fault in a fixed pseudo-random order (the same order on every run):
 * unknown names, JSON cut short, schema violations, throwing, hanging (ended by their time limit),
 * slow (a few event-loop turns) and self-aborting tools, and good calls.
 */
export function campaignCalls(count = 500): CampaignCall[] {
  let seed = 7;
  return Array.from({ length: count }, (_, index) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const fault = FAULTS[seed % FAULTS.length] as (typeof FAULTS)[number];
    return { id: `call_${index}`, ...fault(index) };
  });
}

/**
 * A dispatcher over the campaign's tools whose stack records every receipt, and whose tools count
 * the executions in flight at once.
 */
export function campaignDispatcher(options: { readonly onReceipt?: (count: number) => void } = {}) {
  const receipts = new Map<string, string[]>();
  let receiptCount = 0;
  let inFlight = 0;
  let peak = 0;
  const numberSchema = {
    type: 'object' as const,
    properties: { n: { type: 'number' as const } },
    required: ['n'],
    additionalProperties: false,
  };
  const empty = { type: 'object' as const, properties: {}, additionalProperties: false };
  /** Runs `work` as one execution in flight, until it settles or its call ends (time limit, abort). */
  const executing = async <T>(runtime: ToolRuntime, work: () => Promise<T>): Promise<T> => {
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    const { signal } = runtime;
    let stop: (() => void) | undefined;
    const ended = new Promise<never>((_, reject) => {
      stop = () => reject(signal.reason);
      signal.addEventListener('abort', stop, { once: true });
    });
    try {
      return await Promise.race([work(), ended]);
    } finally {
      inFlight -= 1;
      if (stop !== undefined) signal.removeEventListener('abort', stop);
    }
  };
  const tools = [
    defineTool({
      name: 'echo',
      description: 'Answers with n',
      inputSchema: numberSchema,
      handler: ({ n }, runtime) => executing(runtime, async () => n),
    }),
    defineTool({
      name: 'fail',
      description: 'Throws',
      inputSchema: numberSchema,
      handler: ({ n }, runtime) =>
        executing(runtime, async () => {
          throw new Error(`fail ${n}`);
        }),
    }),
    defineTool({
      name: 'hang',
      description: 'Never answers and ignores its signal',
      inputSchema: empty,
      timeoutMs: HANG_LIMIT_MS,
      handler: (_args, runtime) => executing(runtime, () => new Promise<never>(() => {})),
    }),
    defineTool({
      name: 'slow',
      description: 'Answers after a few turns of the event loop',
      inputSchema: {
        type: 'object',
        properties: { ticks: { type: 'integer', minimum: 1 } },
        required: ['ticks'],
      },
      handler: ({ ticks }: { ticks: number }, runtime) =>
        executing(runtime, async () => {
          for (let tick = 0; tick < ticks; tick += 1) {
            await new Promise((resolve) => setImmediate(resolve));
          }
          return ticks;
        }),
    }),
    defineTool({
      name: 'abort',
      description: 'Gives up on its own',
      inputSchema: empty,
      handler: (_args, runtime) =>
        executing(runtime, async () => {
          throw new DOMException('gave up', 'AbortError');
        }),
    }),
  ];
  const dispatcher = createDispatcher({
    registry: createToolRegistry(tools),
    caller: composeToolCallers([
      withAuditLog(async (receipt) => {
        const id = receipt.tool_call_id;
        receipts.set(id, [...(receipts.get(id) ?? []), receipt.error_category ?? 'ok']);
        receiptCount += 1;
        options.onReceipt?.(receiptCount);
      }),
    ]),
  });
  return {
    dispatcher,
    /** The error category (`ok` for none) of every receipt, by call id. */
    receipts,
    /** Receipts written so far. */
    get receiptCount() {
      return receiptCount;
    },
    /** Executions in flight now (a hanging one until its time limit ends its call). */
    get inFlight() {
      return inFlight;
    },
    get peak() {
      return peak;
    },
  };
}

/** How each call ended by its receipts: call id → its categories, for every call of `calls`. */
export function endings(
  calls: readonly CampaignCall[],
  receipts: ReadonlyMap<string, readonly string[]>,
): Record<string, readonly string[]> {
  return Object.fromEntries(calls.map((call) => [call.id, receipts.get(call.id) ?? []]));
}

/**
 * What `endings` must be when every call ended once, as it must; with `aborted`, a call may
 * instead end cancelled.
 */
export function expectedEndings(
  calls: readonly CampaignCall[],
  aborted?: ReadonlyMap<string, readonly string[]>,
): Record<string, readonly string[]> {
  return Object.fromEntries(
    calls.map((call) => {
      const ending = aborted?.get(call.id);
      const cancelled = ending?.length === 1 && ending[0] === 'cancelled';
      return [call.id, [cancelled ? 'cancelled' : call.expected]];
    }),
  );
}

/** The running timers of this process, to compare before and after a step. */
export function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
}

/** The abort listeners left on `signal`. */
export function abortListeners(signal: AbortSignal): number {
  return getEventListeners(signal, 'abort').length;
}

/** What a campaign's checks read: its calls, its dispatcher's records, the framework's signal. */
export interface CampaignRun {
  readonly calls: readonly CampaignCall[];
  readonly stack: ReturnType<typeof campaignDispatcher>;
  readonly signal: AbortSignal;
  /** `activeTimers()` before the step. */
  readonly timers: number;
  readonly bound: number;
}

/**
 * Checks a step that ran to its end: every call ended once as its fault says, executions peaked
 * at the bound, and no abort listener or timer is left.
 */
export function expectCampaignEnded(run: CampaignRun): void {
  expect(endings(run.calls, run.stack.receipts)).toEqual(expectedEndings(run.calls));
  expect(run.stack.peak).toBe(run.bound);
  expect(abortListeners(run.signal)).toBe(0);
  expect(activeTimers()).toBe(run.timers);
}

/**
 * Checks a step whose signal aborted partway: every call still ended once, cancelled or as its
 * fault says (most cancelled), executions stayed within the bound, and nothing is left behind.
 */
export async function expectCampaignAborted(run: CampaignRun): Promise<void> {
  const { calls, stack } = run;
  await expect.poll(() => stack.receiptCount).toBe(calls.length);
  expect(endings(calls, stack.receipts)).toEqual(expectedEndings(calls, stack.receipts));
  const cancelled = [...stack.receipts.values()].filter(([ending]) => ending === 'cancelled');
  expect(cancelled.length).toBeGreaterThan(calls.length / 2);
  expect(stack.peak).toBeLessThanOrEqual(run.bound);
  expect(abortListeners(run.signal)).toBe(0);
  expect(activeTimers()).toBe(run.timers);
}

/** A campaign dispatcher whose signal aborts once `afterReceipts` receipts are written. */
export function abortingCampaign(afterReceipts: number) {
  const controller = new AbortController();
  const stack = campaignDispatcher({
    onReceipt: (count) => {
      if (count === afterReceipts) controller.abort(new Error('campaign abort'));
    },
  });
  return { controller, stack };
}
