/**
 * The vocabulary of OpenAI wire scripts: what a reply is (JSON or SSE steps), how scripts
 * describe calls, and the error replies both APIs share. The Chat and Responses frame builders
 * build on it; shapes are the ones the SDK was verified against (reference/sdk-facts.md §2).
 */

/** One step of a streamed (SSE) reply. */
export type SseStep =
  /** A frame: `event: <event>` (when given) and `data: <data>` (strings raw, anything else JSON). */
  | { readonly data: unknown; readonly event?: string }
  /** Wait this long before the next step (for timing demos; order tests use `waitFor`). */
  | { readonly delayMs: number }
  /** Send nothing more until this settles: the test decides when the stream goes on. */
  | { readonly waitFor: PromiseLike<unknown> }
  /** Destroy the socket: the connection is lost mid-stream. */
  | { readonly cut: true }
  /** Keep the stream open, sending nothing, until the client goes away. */
  | { readonly hold: true };

/** How the server answers one request. */
export type WireReply =
  /** A JSON body (a completion, a response, or an error body with an error status). */
  | { readonly json: unknown; readonly status?: number; readonly headers?: Record<string, string> }
  /** `200 text/event-stream`, then the steps in order, then the end of the body. */
  | { readonly sse: readonly SseStep[] }
  /** Never answer: no status, no headers, until the client goes away. */
  | { readonly hold: true };

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
