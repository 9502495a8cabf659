// The module each pool worker thread loads. It runs a batch of tool calls one after another.
// Results travel back in the return value; for batches of several calls each result is also
// posted as soon as it is ready, and shared slots tell the main thread exactly which call runs.
import { BroadcastChannel } from 'node:worker_threads';
import type { ToolProgress } from '../tools/tool-spec.js';
import { deepFreeze } from './deep-freeze.js';
import {
  type ChannelMessage,
  type HiddenValues,
  SLOT_DONE,
  SLOT_QUEUED,
  SLOT_RUNNING,
  toErrorData,
  type WorkerBatch,
  type WorkerCall,
  type WorkerOutcome,
} from './worker-protocol.js';

type Handler = (args: unknown, runtime: unknown) => unknown;

/** Handlers by module URL and export name: each module is imported once per worker. */
const handlers = new Map<string, Handler>();
const NEVER_ABORTED = new AbortController().signal;
/** One channel per pool this worker serves. */
const channels = new Map<string, BroadcastChannel>();

function channelFor(name: string): BroadcastChannel {
  let channel = channels.get(name);
  if (channel === undefined) {
    channel = new BroadcastChannel(name);
    // The channel alone must not keep the worker alive.
    (channel as unknown as { unref?: () => void }).unref?.();
    channels.set(name, channel);
  }
  return channel;
}

/** The handler of a call: synchronously once its module is loaded. */
function handlerFor(call: WorkerCall): Handler | Promise<Handler> {
  return handlers.get(`${call.module}#${call.exportName}`) ?? loadHandler(call);
}

async function loadHandler(call: WorkerCall): Promise<Handler> {
  const key = `${call.module}#${call.exportName}`;
  let handler = handlers.get(key);
  if (handler === undefined) {
    const module = (await import(call.module)) as Record<string, unknown>;
    const exported = module[call.exportName];
    if (typeof exported !== 'function') {
      throw new TypeError(
        `worker tool "${call.toolName}": ${call.module} has no function export "${call.exportName}"`,
      );
    }
    handler = exported as Handler;
    handlers.set(key, handler);
  }
  return handler;
}

async function runCall(
  call: WorkerCall,
  hidden: HiddenValues | null | undefined,
  channel: BroadcastChannel,
): Promise<WorkerOutcome> {
  /** Progress messages this call posted. */
  let posted = 0;
  try {
    const found = handlerFor(call);
    const handler = found instanceof Promise ? await found : found;
    const runtime = {
      callId: call.callId,
      toolName: call.toolName,
      // Hard stops terminate the worker: the handler's signal never needs to fire here.
      get signal() {
        return NEVER_ABORTED;
      },
      turn: call.turn,
      context: hidden?.context === undefined ? undefined : deepFreeze(hidden.context),
      stores: undefined,
      secrets: hidden?.secrets === undefined ? undefined : Object.freeze(hidden.secrets),
      emit: (progress: ToolProgress) => {
        posted += 1;
        channel.postMessage({
          type: 'progress',
          ticket: call.ticket,
          progress,
        } satisfies ChannelMessage);
      },
    };
    const value = handler(call.args, runtime);
    return { ok: true, value: value instanceof Promise ? await value : value, progress: posted };
  } catch (error) {
    return { ok: false, error: toErrorData(error), progress: posted };
  }
}

export default async function runBatch(batch: WorkerBatch): Promise<WorkerOutcome[]> {
  const channel = channelFor(batch.channel);
  const slots = batch.slots === undefined ? undefined : new Int32Array(batch.slots);
  const outcomes: WorkerOutcome[] = [];
  const calls = JSON.parse(batch.callsJson) as WorkerCall[];
  for (const call of calls) {
    if (
      slots !== undefined &&
      Atomics.compareExchange(slots, call.slot, SLOT_QUEUED, SLOT_RUNNING) !== SLOT_QUEUED
    ) {
      outcomes.push({ ok: false, skipped: true });
      continue;
    }
    const outcome = await runCall(call, batch.hidden?.[call.slot], channel);
    if (slots !== undefined) Atomics.store(slots, call.slot, SLOT_DONE);
    if (batch.notify) {
      channel.postMessage({ type: 'done', ticket: call.ticket, outcome } satisfies ChannelMessage);
    }
    outcomes.push(outcome);
  }
  return outcomes;
}
