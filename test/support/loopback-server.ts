import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Deferred, deferred } from '../../src/testing/index.js';

/** A request the server received. */
export interface RecordedRequest {
  readonly method: string;
  /** The request target as sent, query included (`/v1/messages`). */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body; `{}` when the body was empty. */
  readonly body: Record<string, unknown>;
  /**
   * Settles when the connection closed before the reply was complete: the client aborted or
   * stopped reading, or the reply cut the socket.
   */
  readonly abandoned: Promise<void>;
}

/** One step of a streamed (SSE) reply. */
export type SseStep =
  /** A frame: `event: <event>` (when given) and `data: <data>` (strings raw, anything else JSON). */
  | { readonly data: unknown; readonly event?: string }
  /** Bytes written as they are (a broken frame, a comment). */
  | { readonly raw: string }
  /** Wait this long before the next step (for timing demos; order tests use `waitFor`). */
  | { readonly delayMs: number }
  /**
   * Send nothing more until this settles: the test decides when the stream goes on. A rejection
   * releases the stream too; the test sees its own failure where the gate was rejected.
   */
  | { readonly waitFor: PromiseLike<unknown> }
  /** Destroy the socket: what a connection lost mid-body looks like to the client. */
  | { readonly cut: true }
  /** Keep the stream open, sending nothing, until the client goes away. */
  | { readonly hold: true };

/** How the server answers one request. */
export type LoopbackReply =
  /** A JSON body (a result, or an error body with an error status). */
  | {
      readonly json: unknown;
      readonly status?: number;
      readonly headers?: Readonly<Record<string, string>>;
    }
  /** `200 text/event-stream`, then the steps in order, then the end of the body. */
  | { readonly sse: readonly SseStep[] }
  /** Never answer: no status, no headers, until the client goes away. */
  | { readonly hold: true };

export interface LoopbackServerOptions {
  /** The reply to a request whose path has nothing queued: the protocol's error body. */
  readonly unqueued: (request: RecordedRequest) => LoopbackReply;
}

/**
 * The plumbing every loopback wire server shares: replies scripted per path and taken one per
 * request in order, and a record of every request. The protocol layers on top of it supply their
 * frames, error bodies, base URLs and SDK clients.
 */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly origin: string;
  readonly requests: readonly RecordedRequest[];
  /** Queues replies for the next requests on `path`, in order. */
  reply(path: string, ...replies: LoopbackReply[]): void;
  /** Settles with the next request not yet handed out (already arrived, or the next to come). */
  nextRequest(): Promise<RecordedRequest>;
  /** Drops every open connection (held replies included), then stops listening. */
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 on a free port. */
export async function startLoopbackServer(options: LoopbackServerOptions): Promise<LoopbackServer> {
  /** Replies not yet taken, per request path. */
  const queues = new Map<string, LoopbackReply[]>();
  const requests: RecordedRequest[] = [];
  /** Callers of nextRequest() waiting for a request that has not arrived yet, oldest first. */
  const waiting: Deferred<RecordedRequest>[] = [];
  /** How many requests nextRequest() has handed out (or promised to a waiting caller). */
  let handedOut = 0;

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const abandoned = deferred<void>();
      response.on('close', () => {
        if (!response.writableFinished) abandoned.resolve();
      });
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: text === '' ? {} : JSON.parse(text),
        abandoned: abandoned.promise,
      };
      requests.push(recorded);
      waiting.shift()?.resolve(recorded);
      const reply = queues.get(recorded.path)?.shift() ?? options.unqueued(recorded);
      void answer(response, reply, abandoned.promise);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    reply(path, ...replies) {
      const queue = queues.get(path) ?? [];
      queue.push(...replies);
      queues.set(path, queue);
    },
    nextRequest() {
      const arrived = requests[handedOut];
      handedOut += 1;
      if (arrived !== undefined) return Promise.resolve(arrived);
      const gate = deferred<RecordedRequest>();
      waiting.push(gate);
      return gate.promise;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

async function answer(
  response: ServerResponse,
  reply: LoopbackReply,
  gone: Promise<void>,
): Promise<void> {
  if ('hold' in reply) return;
  if ('json' in reply) {
    response.writeHead(reply.status ?? 200, {
      'content-type': 'application/json',
      ...reply.headers,
    });
    response.end(JSON.stringify(reply.json));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.flushHeaders();
  for (const step of reply.sse) {
    if (response.destroyed) return;
    if ('data' in step) {
      const data = typeof step.data === 'string' ? step.data : JSON.stringify(step.data);
      response.write(
        `${step.event === undefined ? '' : `event: ${step.event}\n`}data: ${data}\n\n`,
      );
    } else if ('raw' in step) {
      response.write(step.raw);
    } else if ('delayMs' in step) {
      await sleep(step.delayMs);
    } else if ('waitFor' in step) {
      await Promise.resolve(step.waitFor).catch(() => undefined);
    } else if ('cut' in step) {
      response.socket?.destroy();
      return;
    } else {
      await gone;
      return;
    }
  }
  if (!response.destroyed) response.end();
}
