import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Deferred, deferred } from '../../src/testing/index.js';

/** A request the fake server received. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
  /** Settles when the client went away before the server answered (an aborted request). */
  readonly abandoned: Promise<void>;
}

/** How the server answers the next request on a path. */
export type FakeReply =
  | { readonly status?: number; readonly body: unknown }
  /** Never answer on its own: the test decides (or the client aborts). */
  | { readonly hold: true };

export type FakePath = '/v1/chat/completions' | '/v1/messages';

/**
 * A loopback server speaking just enough of the OpenAI Chat Completions and Anthropic Messages JSON
 * protocols (non-streaming) for the binder's SDK paths. Replies are queued per path; every request
 * is recorded with its parsed body.
 */
export interface BinderFakeServer {
  /** For `new OpenAI({ baseURL })` (with `/v1`). */
  readonly openAIBaseURL: string;
  /** For `new Anthropic({ baseURL })` (without `/v1`: the SDK adds it). */
  readonly anthropicBaseURL: string;
  readonly requests: RecordedRequest[];
  reply(path: FakePath, reply: FakeReply): void;
  /** Settles with the next request to arrive (or the one already waiting). */
  nextRequest(): Promise<RecordedRequest>;
  close(): Promise<void>;
}

export async function startBinderFakeServer(): Promise<BinderFakeServer> {
  const queues = new Map<string, FakeReply[]>();
  const requests: RecordedRequest[] = [];
  const waiting: Deferred<RecordedRequest>[] = [];
  let delivered = 0;

  function send(response: ServerResponse, status: number, body: unknown): void {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      const abandoned = deferred<void>();
      response.on('close', () => {
        if (!response.writableEnded) abandoned.resolve();
      });
      const recorded: RecordedRequest = {
        method: request.method ?? '',
        path,
        headers: request.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'),
        abandoned: abandoned.promise,
      };
      requests.push(recorded);
      waiting.shift()?.resolve(recorded);
      const reply = queues.get(path)?.shift();
      if (reply === undefined) {
        send(response, 404, {
          error: { type: 'not_found', message: `no reply queued for ${path}` },
        });
      } else if (!('hold' in reply)) {
        send(response, reply.status ?? 200, reply.body);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    openAIBaseURL: `${origin}/v1`,
    anthropicBaseURL: origin,
    requests,
    reply(path, reply) {
      const queue = queues.get(path) ?? [];
      queue.push(reply);
      queues.set(path, queue);
    },
    nextRequest() {
      const index = delivered;
      delivered += 1;
      const arrived = requests[index];
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

/** A Chat Completions response whose assistant message has `content`. */
export function openAIChatReply(content: string | null, model = 'fake-binder'): FakeReply {
  return {
    body: {
      id: 'chatcmpl_1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model,
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          logprobs: null,
          message: { role: 'assistant', content, refusal: null },
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    },
  };
}

/** A Messages response with these content blocks. */
export function anthropicMessageReply(
  content: readonly Record<string, unknown>[],
  model = 'fake-binder',
): FakeReply {
  const usesTool = content.some((block) => block.type === 'tool_use');
  return {
    body: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: usesTool ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    },
  };
}
