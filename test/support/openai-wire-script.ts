import type { LoopbackReply, SseStep } from './loopback-server.js';

/**
 * The vocabulary of OpenAI wire scripts: what a reply is, how scripts describe calls, and the
 * error replies both APIs share. The Chat and Responses frame builders build on it; shapes are
 * the ones the SDK was verified against (reference/sdk-facts.md §2).
 */

/** Frames may go without an `event:` line: Chat Completions sends none, Responses names each. */
export type { SseStep };

/** How the server answers one request: the loopback server's replies, with no OpenAI shape added. */
export type WireReply = LoopbackReply;

/** A call as a script describes it: its arguments arrive in these pieces. */
export interface ScriptedCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: readonly string[];
}

export interface ScriptedUsage {
  readonly input: number;
  readonly output: number;
}

/** An HTTP error with OpenAI's error body (`{error: {message, type, code}}`). */
export function errorReply(
  status: number,
  message: string,
  options: { type?: string; code?: string | null; headers?: Record<string, string> } = {},
): WireReply {
  return {
    status,
    json: {
      error: { message, type: options.type ?? 'invalid_request_error', code: options.code ?? null },
    },
    ...(options.headers === undefined ? {} : { headers: options.headers }),
  };
}

/** An error frame mid-stream: the SDK turns `data: {"error": …}` into an `APIError`. */
export function errorFrame(message: string, type: string, code: string | null = null): SseStep {
  return { data: { error: { message, type, code } } };
}
