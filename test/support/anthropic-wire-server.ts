import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Anthropic } from '@anthropic-ai/sdk';
import { type Deferred, deferred } from '../../src/testing/index.js';
import { errorBody, type SseFrame } from './anthropic-wire-frames.js';

export * from './anthropic-wire-frames.js';

/** A request the server received, with its parsed JSON body. */
export interface WireRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
  /**
   * Settles when the connection closed before the reply was complete: the client aborted or
   * stopped reading (or the reply's ending was `cut`).
   */
  readonly abandoned: Promise<void>;
}

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
 * a record of every request. Reusable by any test that drives an Anthropic model end to end.
 */
export interface AnthropicWireServer {
  /** For `new Anthropic({ baseURL })`: no `/v1`, the SDK adds it. */
  readonly baseURL: string;
  readonly requests: readonly WireRequest[];
  /** Queues replies, answered one per request in order. */
  reply(...replies: WireReply[]): void;
  /** Settles with the next request not yet taken (waiting for it when needed). */
  nextRequest(): Promise<WireRequest>;
  /** An SDK client for this server: `apiKey: 'test-key'`, `maxRetries: 0`. */
  client(options?: { readonly maxRetries?: number; readonly timeout?: number }): Anthropic;
  close(): Promise<void>;
}

/** An HTTP error reply with an Anthropic-shaped body (`rate_limit_error`, `overloaded_error`, …). */
export function errorReply(status: number, type: string, message = type): WireReply {
  return { status, json: errorBody(type, message) };
}

export async function startAnthropicWireServer(): Promise<AnthropicWireServer> {
  const queue: WireReply[] = [];
  const requests: WireRequest[] = [];
  const waiting: Deferred<WireRequest>[] = [];
  let taken = 0;

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const abandoned = deferred<void>();
      response.on('close', () => {
        if (!response.writableFinished) abandoned.resolve();
      });
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: WireRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: text === '' ? {} : JSON.parse(text),
        abandoned: abandoned.promise,
      };
      requests.push(recorded);
      waiting.shift()?.resolve(recorded);
      const reply = recorded.path === '/v1/messages' ? queue.shift() : undefined;
      if (reply === undefined) {
        const message = `anthropic-wire-server: no reply queued for ${recorded.method} ${recorded.path}`;
        sendJson(response, 501, errorBody('api_error', message));
      } else if ('json' in reply) {
        sendJson(response, reply.status ?? 200, reply.json, reply.headers);
      } else if ('stream' in reply) {
        void sendStream(response, reply.stream, reply.ending ?? 'end');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseURL = `http://127.0.0.1:${port}`;

  return {
    baseURL,
    requests,
    reply(...replies) {
      queue.push(...replies);
    },
    nextRequest() {
      const arrived = requests[taken];
      taken += 1;
      if (arrived !== undefined) return Promise.resolve(arrived);
      const gate = deferred<WireRequest>();
      waiting.push(gate);
      return gate.promise;
    },
    client(options = {}) {
      return new Anthropic({ apiKey: 'test-key', baseURL, maxRetries: 0, ...options });
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

async function sendStream(
  response: ServerResponse,
  steps: readonly StreamStep[],
  ending: 'end' | 'cut' | 'hold',
): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.flushHeaders();
  for (const step of steps) {
    if (response.destroyed) return;
    if ('waitFor' in step) await step.waitFor.catch(() => undefined);
    else if ('delayMs' in step) await new Promise((resolve) => setTimeout(resolve, step.delayMs));
    else if ('raw' in step) response.write(step.raw);
    else response.write(`event: ${step.event}\ndata: ${JSON.stringify(step.data)}\n\n`);
  }
  if (response.destroyed) return;
  if (ending === 'end') response.end();
  // Destroying the socket mid-body is what a dropped connection looks like to the client.
  else if (ending === 'cut') response.socket?.destroy();
}
