import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isPlainObject } from 'switchyard/tools';
import type { LatencyOf, SimulatedAnswers } from './simulated-binder.js';

/** A running simulated binder: an OpenAI-compatible endpoint on 127.0.0.1. */
export interface SimulatedBinderServer {
  /** For `new OpenAI({ baseURL })`: includes `/v1`. */
  readonly baseURL: string;
  /** Drops open connections and stops listening. */
  close(): Promise<void>;
}

const CHAT_PATH = '/v1/chat/completions';

function userPromptOf(body: unknown): string | undefined {
  if (!isPlainObject(body) || !Array.isArray(body.messages)) return undefined;
  const user = body.messages.find((message) => isPlainObject(message) && message.role === 'user');
  return isPlainObject(user) && typeof user.content === 'string' ? user.content : undefined;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function completion(model: string, content: string): unknown {
  return {
    id: 'chatcmpl-simulated',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      { index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null },
    ],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

/**
 * Starts a simulated binder behind the OpenAI Chat Completions wire protocol on a free loopback
 * port: `POST /v1/chat/completions` answers the expected arguments of the case whose prompt the user
 * message carries, as JSON content, after the case's drawn latency (a client that gives up first
 * cancels the wait). An unknown prompt or path gets a 404 error body. Its figures measure the
 * harness and the budget, not a model: label them simulated.
 */
export async function startSimulatedBinderServer(options: {
  readonly answers: SimulatedAnswers;
  readonly latencyOf: LatencyOf;
}): Promise<SimulatedBinderServer> {
  const { answers, latencyOf } = options;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      const prompt = userPromptOf(body);
      const answer = prompt === undefined ? undefined : answers.get(prompt);
      if (request.url !== CHAT_PATH || answer === undefined) {
        send(response, 404, {
          error: { message: 'simulated binder: no answer for this request', type: 'not_found' },
        });
        return;
      }
      const model = isPlainObject(body) && typeof body.model === 'string' ? body.model : '';
      const handle = setTimeout(
        () => send(response, 200, completion(model, JSON.stringify(answer.args))),
        latencyOf(answer.caseId),
      );
      response.on('close', () => clearTimeout(handle));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
