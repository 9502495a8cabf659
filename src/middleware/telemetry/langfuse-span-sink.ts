import { randomUUID } from 'node:crypto';
import type { SpanSink } from './span-sinks.js';
import type { ToolCallSpan } from './tool-call-span.js';

/**
 * Options of the `langfuse` sink: where its ingestion API is, its keys, and how spans are batched.
 */
export interface LangfuseSinkOptions {
  /** Default: env `LANGFUSE_BASE_URL` (or `LANGFUSE_HOST`). */
  readonly baseUrl?: string;
  /** Default: env `LANGFUSE_PUBLIC_KEY`. */
  readonly publicKey?: string;
  /** Default: env `LANGFUSE_SECRET_KEY`. */
  readonly secretKey?: string;
  /** Spans sent per request. Default 50. */
  readonly batchSize?: number;
  /** Longest a span waits before its batch is sent. Default 1000 ms. */
  readonly flushIntervalMs?: number;
  /** Request time limit. Default 5000 ms. */
  readonly timeoutMs?: number;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Sends spans to Langfuse's ingestion API (`POST <base>/api/public/ingestion`, Basic auth), in
 * batches, off the call's path: `export` only queues. Failures (missing credentials, HTTP errors)
 * are reported through the sink's `onError`, never thrown into a call.
 */
export function langfuseSpanSink(
  options: LangfuseSinkOptions,
  onError: (error: unknown) => void,
): SpanSink {
  const env = options.env ?? process.env;
  const baseUrl = options.baseUrl ?? env.LANGFUSE_BASE_URL ?? env.LANGFUSE_HOST;
  const publicKey = options.publicKey ?? env.LANGFUSE_PUBLIC_KEY;
  const secretKey = options.secretKey ?? env.LANGFUSE_SECRET_KEY;
  const batchSize = options.batchSize ?? 50;
  /** Spans waiting to be sent. */
  let pending: ToolCallSpan[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: Promise<void> = Promise.resolve();

  async function send(spans: ToolCallSpan[]): Promise<void> {
    if (baseUrl === undefined || publicKey === undefined || secretKey === undefined) {
      throw new Error(
        'the langfuse sink needs LANGFUSE_BASE_URL, LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY',
      );
    }
    const batch = spans.map((span) => ({
      id: randomUUID(),
      timestamp: new Date(span.endTimeMs).toISOString(),
      type: 'span-create',
      body: {
        id: span.spanId,
        traceId: span.traceId,
        name: span.name,
        startTime: new Date(span.startTimeMs).toISOString(),
        endTime: new Date(span.endTimeMs).toISOString(),
        metadata: { attributes: span.attributes, layers: span.children },
        level: span.status === 'ok' ? 'DEFAULT' : 'ERROR',
        ...(span.statusMessage === undefined ? {} : { statusMessage: span.statusMessage }),
      },
    }));
    const response = await fetch(new URL('/api/public/ingestion', baseUrl), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${publicKey}:${secretKey}`).toString('base64')}`,
      },
      body: JSON.stringify({ batch }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
    });
    if (!response.ok) throw new Error(`langfuse ingestion answered HTTP ${response.status}`);
  }

  function flushNow(): Promise<void> {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return inFlight;
    const spans = pending;
    pending = [];
    inFlight = inFlight.then(() => send(spans)).catch(onError);
    return inFlight;
  }

  return {
    export(span) {
      pending.push(span);
      if (pending.length >= batchSize) void flushNow();
      else if (timer === undefined) {
        timer = setTimeout(() => void flushNow(), options.flushIntervalMs ?? 1000);
        timer.unref();
      }
    },
    flush: flushNow,
  };
}
