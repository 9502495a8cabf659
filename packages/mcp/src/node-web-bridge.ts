import type { IncomingMessage, ServerResponse } from 'node:http';

/** A request body read within its bound, or the fact that it was past it. */
export type RequestBody =
  | { readonly tooLarge: false; readonly text: string }
  | { readonly tooLarge: true };

/** Bytes past the bound still read (and dropped) so the client can finish sending and read its 413. */
const DRAINED_BYTES = 64 * 1024 * 1024;

/**
 * Reads a request body of at most `maxBytes`. A longer one is not kept: the rest is read and
 * dropped, so a client that writes its whole body before reading gets its answer rather than a
 * broken pipe, up to 64 MiB more (or at once when `Content-Length` declares more than that);
 * past that the caller's answer closes the connection under the client.
 */
export async function readRequestBody(
  request: IncomingMessage,
  maxBytes: number,
): Promise<RequestBody> {
  if (Number(request.headers['content-length']) > maxBytes + DRAINED_BYTES) {
    return { tooLarge: true };
  }
  let chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes + DRAINED_BYTES) return { tooLarge: true };
    if (size > maxBytes) chunks = [];
    else chunks.push(chunk);
  }
  if (size > maxBytes) return { tooLarge: true };
  return { tooLarge: false, text: Buffer.concat(chunks).toString('utf8') };
}

// The body is handed over as the text that arrived, so these describe it no more.
const BODY_HEADERS = new Set(['content-length', 'transfer-encoding', 'content-encoding']);

/**
 * A web `Request` for a Node request whose body was already read (`body`, the text as it arrived:
 * never re-serialised, so a value too deep for `JSON.stringify` still reaches the handler).
 * `signal` should abort when the client goes away.
 */
export function webRequestOf(
  request: IncomingMessage,
  url: URL,
  body: string | undefined,
  signal: AbortSignal,
): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name.startsWith(':') || BODY_HEADERS.has(name)) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const method = request.method ?? 'GET';
  const hasBody = body !== undefined && method !== 'GET' && method !== 'HEAD';
  return new Request(url, { method, headers, signal, ...(hasBody ? { body } : {}) });
}

function drainedOrClosed(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.once('drain', done);
    response.once('close', done);
  });
}

/** Writes a web `Response` (an SSE stream included) to a Node response, minding backpressure. */
export async function writeWebResponse(answer: Response, response: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    headers[name] = value;
  });
  response.writeHead(answer.status, headers);
  if (answer.body === null) {
    response.end();
    return;
  }
  const reader = answer.body.getReader();
  const cancel = () => {
    reader.cancel().catch(() => undefined);
  };
  response.once('close', cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || response.destroyed) break;
      if (!response.write(value)) await drainedOrClosed(response);
    }
  } finally {
    response.off('close', cancel);
    response.end();
  }
}
