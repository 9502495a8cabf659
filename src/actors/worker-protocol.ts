import type { ToolProgress, ToolTurnFacts } from '../tools/tool-spec.js';

/** One call as it crosses into a worker: plain, structured-clonable data only. */
export interface WorkerCall {
  /** Position of the call in its batch's slot array. */
  readonly slot: number;
  readonly callId: string;
  readonly toolName: string;
  /** `file:` URL of the module exporting the handler. */
  readonly module: string;
  readonly exportName: string;
  readonly args: unknown;
  readonly turn: ToolTurnFacts;
  /** The pool's own id of this call (call ids from models may repeat). */
  readonly ticket: number;
}

/** Values a tool asked for through `injected`; never serialized as JSON. */
export interface HiddenValues {
  readonly context?: unknown;
  readonly secrets?: Readonly<Record<string, string>>;
}

/** What a worker receives per message: a batch of calls run one after another. */
export interface WorkerBatch {
  /** Names the pool's BroadcastChannel (progress, started/done notices, skips). */
  readonly channel: string;
  /**
   * The calls as JSON text (their arguments came from JSON): one string clones far faster than
   * an object graph per call. Injected values travel beside it in `hidden`.
   */
  readonly callsJson: string;
  /** Per call, the injected context and secrets (structured-cloned), when any call has them. */
  readonly hidden?: readonly (HiddenValues | null)[];
  /** Post each result as soon as it is ready (batches that may be terminated midway). */
  readonly notify: boolean;
  /**
   * One Int32 per call, shared with the main thread (batches of several calls only): `SLOT_QUEUED`
   * until the worker claims it (`SLOT_RUNNING`), then `SLOT_DONE`; the main thread may claim a
   * queued slot with `SLOT_SKIPPED` so the call never starts. Compare-and-swap makes both exact.
   */
  readonly slots?: SharedArrayBuffer;
}

export const SLOT_QUEUED = 0;
export const SLOT_RUNNING = 1;
export const SLOT_DONE = 2;
export const SLOT_SKIPPED = 3;

/** An error as plain data: structured clone keeps neither subclasses nor custom fields. */
export interface ErrorData {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
  readonly stack?: string;
  /** Own enumerable fields of the error (e.g. `status`, `category`), when clonable. */
  readonly data?: Record<string, unknown>;
}

/**
 * What one call produced. `progress` counts the progress messages the call posted: the main thread
 * settles the call only once it has seen them all, because the channel they travel on and the
 * result are not ordered with each other.
 */
export type WorkerOutcome =
  | { readonly ok: true; readonly value: unknown; readonly progress: number }
  | { readonly ok: false; readonly error: ErrorData; readonly progress: number }
  | { readonly ok: false; readonly skipped: true };

/** Messages on the pool's BroadcastChannel, keyed by the pool's ticket of each call. */
export type ChannelMessage =
  | { readonly type: 'progress'; readonly ticket: number; readonly progress: ToolProgress }
  | { readonly type: 'done'; readonly ticket: number; readonly outcome: WorkerOutcome };

/** Turns anything thrown into `ErrorData`, keeping clonable own fields. */
export function toErrorData(thrown: unknown): ErrorData {
  if (!(thrown instanceof Error)) {
    return { name: 'Error', message: typeof thrown === 'string' ? thrown : safeString(thrown) };
  }
  const data: Record<string, unknown> = {};
  for (const key of Object.keys(thrown)) {
    const value = (thrown as unknown as Record<string, unknown>)[key];
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) data[key] = value;
  }
  const code = (thrown as { code?: unknown }).code;
  return {
    name: thrown.name,
    message: thrown.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(thrown.stack === undefined ? {} : { stack: thrown.stack }),
    ...(Object.keys(data).length === 0 ? {} : { data }),
  };
}

/** Rebuilds an Error from `ErrorData` on the main thread, own fields restored. */
export function fromErrorData(data: ErrorData): Error {
  const error = new Error(data.message);
  error.name = data.name;
  if (data.stack !== undefined) error.stack = data.stack;
  for (const [key, value] of Object.entries(data.data ?? {})) {
    if (key !== '__proto__')
      Object.defineProperty(error, key, { value, enumerable: true, writable: true });
  }
  if (data.code !== undefined)
    Object.defineProperty(error, 'code', { value: data.code, enumerable: true });
  return error;
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
