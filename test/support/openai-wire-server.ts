import { type ClientOptions, OpenAI } from 'openai';
import { type LoopbackReply, type LoopbackServer, startLoopbackServer } from './loopback-server.js';
import type { WireReply } from './openai-wire-script.js';

export type { RecordedRequest } from './loopback-server.js';
export * from './openai-chat-frames.js';
export * from './openai-responses-frames.js';
export * from './openai-wire-script.js';

export const CHAT_PATH = '/v1/chat/completions';
export const RESPONSES_PATH = '/v1/responses';
export type WirePath = typeof CHAT_PATH | typeof RESPONSES_PATH;

/**
 * A loopback server speaking the OpenAI Chat Completions and Responses wire protocols (JSON and
 * SSE) from scripts: replies are queued per path and taken one per request; a request with no
 * reply queued gets a 404 error body. Every request is recorded with its parsed body.
 */
export interface OpenAIWireServer
  extends Pick<LoopbackServer, 'requests' | 'nextRequest' | 'close'> {
  /** For `new OpenAI({ baseURL })`: includes `/v1`. */
  readonly baseURL: string;
  /** Queues replies for the next requests on `path`, in order. */
  reply(path: WirePath, ...replies: WireReply[]): void;
  /** An SDK client for this server: key `test-key`, `maxRetries: 0`. */
  client(options?: ClientOptions): OpenAI;
}

/** Starts a server on 127.0.0.1 on a free port. */
export async function startOpenAIWireServer(): Promise<OpenAIWireServer> {
  const loopback = await startLoopbackServer({ unqueued: (request) => notFound(request.path) });
  const baseURL = `${loopback.origin}/v1`;
  return {
    ...loopback,
    baseURL,
    client(options = {}) {
      return new OpenAI({ apiKey: 'test-key', baseURL, maxRetries: 0, ...options });
    },
  };
}

function notFound(path: string): LoopbackReply {
  return {
    status: 404,
    json: { error: { message: `no reply queued for ${path}`, type: 'not_found', code: null } },
  };
}
