import type { ModelClient } from 'switchyard';
import { ModelError } from 'switchyard';
import { FifoQueue, sleep as timerSleep } from 'switchyard/extension';
import type { ModelRequest } from 'switchyard/providers';
import type { ToolCallDelta } from 'switchyard/streams';

const WINDOW_MS = 60_000;

/** Options of `createModelLimiter`. */
export interface ModelLimiterOptions {
  /** Requests started per rolling minute, at most. Default unbounded. */
  readonly requestsPerMinute?: number;
  /** Tokens (in + out, as reported) per rolling minute; a request waits while the minute is full. Default unbounded. */
  readonly tokensPerMinute?: number;
  /** Retries of a request answered 429 before any output. Default 5. */
  readonly maxRetries?: number;
  /** Pause after a 429 without `retry-after`, doubled each retry. Default 1000 ms. */
  readonly backoffMs?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
}

/** One limiter shared by every session of a batch: a rolling minute of requests and tokens, and a shared pause after 429s. */
export interface ModelLimiter {
  /** Waits until a request may start (the pause is over, the minute has room), then counts it. */
  acquire(signal?: AbortSignal): Promise<void>;
  /** Counts tokens a response reported. */
  addTokens(tokens: number): void;
  /** Holds every request back for `ms` (a 429's `retry-after`). */
  pause(ms: number): void;
  /** 429 answers seen so far. */
  readonly throttled: number;
  readonly maxRetries: number;
  readonly backoffMs: number;
}

/** The `retry-after` (or `retry-after-ms`) a provider's 429 carried, in ms; undefined when none. */
export function retryAfterMs(error: unknown, now: number = Date.now()): number | undefined {
  const cause = (error as { cause?: { headers?: unknown } } | undefined)?.cause;
  const headers = cause?.headers;
  const header = (name: string): string | undefined => {
    if (headers === undefined || headers === null) return undefined;
    if (typeof (headers as Headers).get === 'function')
      return (headers as Headers).get(name) ?? undefined;
    const value = (headers as Record<string, unknown>)[name];
    return typeof value === 'string' ? value : undefined;
  };
  const ms = Number(header('retry-after-ms'));
  if (Number.isFinite(ms) && ms >= 0 && header('retry-after-ms') !== undefined) return ms;
  const text = header('retry-after');
  if (text === undefined) return undefined;
  const seconds = Number(text);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Creates the limiter; see `ModelLimiterOptions`. */
export function createModelLimiter(options: ModelLimiterOptions = {}): ModelLimiter {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? timerSleep;
  const rpm = options.requestsPerMinute ?? Number.POSITIVE_INFINITY;
  const tpm = options.tokensPerMinute ?? Number.POSITIVE_INFINITY;
  /** Start times of the requests of the rolling minute, oldest first. */
  const requests = new FifoQueue<number>();
  /** Tokens reported in the rolling minute, oldest first, and their sum. */
  const tokens = new FifoQueue<{ at: number; count: number }>();
  let tokenSum = 0;
  /** No request starts before this time. */
  let pausedUntil = 0;
  let throttled = 0;

  function expire(at: number): void {
    while (requests.size > 0 && (requests.peek() as number) <= at - WINDOW_MS) requests.shift();
    while (tokens.size > 0 && (tokens.peek()?.at as number) <= at - WINDOW_MS) {
      tokenSum -= tokens.shift()?.count ?? 0;
    }
  }

  /** How long a request must wait now; 0 when it may start. */
  function waitMs(at: number): number {
    expire(at);
    let wait = Math.max(0, pausedUntil - at);
    if (requests.size >= rpm) wait = Math.max(wait, (requests.peek() as number) + WINDOW_MS - at);
    if (tokenSum >= tpm) wait = Math.max(wait, (tokens.peek()?.at as number) + WINDOW_MS - at);
    return wait;
  }

  return {
    async acquire(signal) {
      for (let wait = waitMs(now()); wait > 0; wait = waitMs(now())) await sleep(wait, signal);
      requests.push(now());
    },
    addTokens(count) {
      if (count <= 0) return;
      tokens.push({ at: now(), count });
      tokenSum += count;
    },
    pause(ms) {
      throttled += 1;
      pausedUntil = Math.max(pausedUntil, now() + ms);
    },
    get throttled() {
      return throttled;
    },
    maxRetries: options.maxRetries ?? 5,
    backoffMs: options.backoffMs ?? 1000,
  };
}

function isRateLimited(error: unknown): boolean {
  return ModelError.isInstance(error) && (error.status === 429 || error.category === 'rate_limit');
}

/**
 * `model` behind a shared limiter: each request waits for room, reported usage is counted, and
 * a 429 that arrives before any output pauses every session for its `retry-after` (else an
 * exponential backoff) and is retried here, up to `limiter.maxRetries` times.
 */
export function limitedModel(model: ModelClient, limiter: ModelLimiter): ModelClient {
  return {
    provider: model.provider,
    model: model.model,
    toolCalling: model.toolCalling,
    async *stream(request: ModelRequest): AsyncIterable<ToolCallDelta> {
      for (let attempt = 0; ; attempt += 1) {
        await limiter.acquire(request.signal);
        let started = false;
        try {
          for await (const delta of model.stream(request)) {
            started = true;
            if (delta.type === 'usage') limiter.addTokens(delta.inputTokens + delta.outputTokens);
            yield delta;
          }
          return;
        } catch (error) {
          if (started || !isRateLimited(error) || attempt >= limiter.maxRetries) throw error;
          limiter.pause(retryAfterMs(error) ?? limiter.backoffMs * 2 ** attempt);
        }
      }
    },
  };
}
