import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ClientOptions, OpenAI } from 'openai';
import { type Deferred, deferred } from '../../src/testing/index.js';

import type { WireReply } from './openai-wire-script.js';

export * from './openai-chat-frames.js';
export * from './openai-responses-frames.js';
export * from './openai-wire-script.js';

export const CHAT_PATH = '/v1/chat/completions';
export const RESPONSES_PATH = '/v1/responses';
export type WirePath = typeof CHAT_PATH | typeof RESPONSES_PATH;

/** A request the server received. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
  /** Settles when the client went away before the reply was complete (an abort). */
  readonly abandoned: Promise<void>;
}

/**
 * A loopback server speaking the OpenAI Chat Completions and Responses wire protocols (JSON and
 * SSE) from scripts: replies are queued per path and taken one per request; a request with no
 * reply queued gets a 404 error body. Every request is recorded with its parsed body.
 */
export interface OpenAIWireServer {
  /** For `new OpenAI({ baseURL })`: includes `/v1`. */
  readonly baseURL: string;
  readonly requests: readonly RecordedRequest[];
  /** Queues replies for the next requests on `path`, in order. */
  reply(path: WirePath, ...replies: WireReply[]): void;
  /** Settles with the next request not yet handed out (already arrived, or the next to come). */
  nextRequest(): Promise<RecordedRequest>;
  /** An SDK client for this server: key `test-key`, `maxRetries: 0`. */
  client(options?: ClientOptions): OpenAI;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 on a free port. */
export async function startOpenAIWireServer(): Promise<OpenAIWireServer> {
  const queues = new Map<string, WireReply[]>();
  const requests: RecordedRequest[] = [];
  /** Callers of nextRequest() waiting for a request that has not arrived yet. */
  const waiting: Deferred<RecordedRequest>[] = [];
  /** How many requests nextRequest() has handed out. */
  let handedOut = 0;

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      const abandoned = deferred<void>();
      response.on('close', () => {
        if (!response.writableFinished) abandoned.resolve();
      });
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: request.method ?? '',
        path,
        headers: request.headers,
        body: text === '' ? {} : JSON.parse(text),
        abandoned: abandoned.promise,
      };
      requests.push(recorded);
      const reply = queues.get(path)?.shift() ?? notFound(path);
      void answer(response, reply, abandoned.promise);
      if (waiting.length > 0) {
        handedOut += 1;
        waiting.shift()?.resolve(recorded);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseURL = `http://127.0.0.1:${port}/v1`;

  return {
    baseURL,
    requests,
    reply(path, ...replies) {
      const queue = queues.get(path) ?? [];
      queue.push(...replies);
      queues.set(path, queue);
    },
    nextRequest() {
      const arrived = requests[handedOut];
      if (arrived !== undefined) {
        handedOut += 1;
        return Promise.resolve(arrived);
      }
      const gate = deferred<RecordedRequest>();
      waiting.push(gate);
      return gate.promise;
    },
    client(options = {}) {
      return new OpenAI({ apiKey: 'test-key', baseURL, maxRetries: 0, ...options });
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
  reply: WireReply,
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
    } else if ('delayMs' in step) {
      await sleep(step.delayMs);
    } else if ('waitFor' in step) {
      await step.waitFor;
    } else if ('cut' in step) {
      response.socket?.destroy();
      return;
    } else {
      await gone;
      return;
    }
  }
  response.end();
}

function notFound(path: string): WireReply {
  return {
    status: 404,
    json: { error: { message: `no reply queued for ${path}`, type: 'not_found', code: null } },
  };
}
