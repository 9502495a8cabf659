import { Anthropic } from '@anthropic-ai/sdk';
import { errorBody, type SseFrame } from './anthropic-wire-frames.js';
import {
  type LoopbackReply,
  type LoopbackServer,
  type SseStep,
  startLoopbackServer,
} from './loopback-server.js';

export * from './anthropic-wire-frames.js';
export type { RecordedRequest } from './loopback-server.js';

/** The one path the server answers; every other path gets the unqueued error. */
export const MESSAGES_PATH = '/v1/messages';

/** One step of a streamed reply. */
export type StreamStep =
  | SseFrame
  /** Bytes written as they are (a frame without `event:`, a broken frame). */
  | { readonly raw: string }
  /** Write nothing more until this settles: the test releases the rest of the stream. */
  | { readonly waitFor: Promise<unknown> }
  /** Pause between frames so they reach the client in separate reads. */
  | { readonly delayMs: number };

/** How the server answers one POST /v1/messages. */
export type WireReply =
  /**
   * An SSE stream. `ending`: `end` (default) closes the response; `cut` destroys the socket
   * mid-body; `hold` leaves it open until the client goes away.
   */
  | { readonly stream: readonly StreamStep[]; readonly ending?: 'end' | 'cut' | 'hold' }
  /** A JSON answer: a message, or an error body with its HTTP status. */
  | {
      readonly status?: number;
      readonly json: unknown;
      readonly headers?: Readonly<Record<string, string>>;
    }
  /** No answer at all until the client goes away. */
  | { readonly hold: true };

/**
 * A loopback server speaking the Anthropic Messages API to the real SDK: a queue of scripted
 * replies for `POST /v1/messages` (streams with holds and cuts, JSON messages, HTTP errors), and
 * a record of every request. A request with no reply queued gets a 501 `api_error` body.
 * Reusable by any test that drives an Anthropic model end to end.
 */
export interface AnthropicWireServer
  extends Pick<LoopbackServer, 'requests' | 'nextRequest' | 'close'> {
  /** For `new Anthropic({ baseURL })`: no `/v1`, the SDK adds it. */
  readonly baseURL: string;
  /** Queues replies, answered one per request in order. */
  reply(...replies: WireReply[]): void;
  /** An SDK client for this server: `apiKey: 'test-key'`, `maxRetries: 0`. */
  client(options?: { readonly maxRetries?: number; readonly timeout?: number }): Anthropic;
}

/** An HTTP error reply with an Anthropic-shaped body (`rate_limit_error`, `overloaded_error`, …). */
export function errorReply(status: number, type: string, message = type): WireReply {
  return { status, json: errorBody(type, message) };
}

/** Starts a server on 127.0.0.1 on a free port. */
export async function startAnthropicWireServer(): Promise<AnthropicWireServer> {
  const loopback = await startLoopbackServer({
    unqueued: (request) => ({
      status: 501,
      json: errorBody(
        'api_error',
        `anthropic-wire-server: no reply queued for ${request.method} ${request.path}`,
      ),
    }),
  });
  const baseURL = loopback.origin;
  return {
    ...loopback,
    baseURL,
    reply(...replies) {
      loopback.reply(MESSAGES_PATH, ...replies.map(toLoopbackReply));
    },
    client(options = {}) {
      return new Anthropic({ apiKey: 'test-key', baseURL, maxRetries: 0, ...options });
    },
  };
}

/** A stream's frames always carry `event:` and JSON data; its ending becomes the last step. */
function toLoopbackReply(reply: WireReply): LoopbackReply {
  if (!('stream' in reply)) return reply;
  const steps: SseStep[] = reply.stream.map((step) =>
    'event' in step ? { event: step.event, data: JSON.stringify(step.data) } : step,
  );
  if (reply.ending === 'cut') steps.push({ cut: true });
  else if (reply.ending === 'hold') steps.push({ hold: true });
  return { sse: steps };
}
