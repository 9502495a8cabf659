import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { JsonRpcId } from './json-rpc-id-scanner.js';

/** JSON-RPC 2.0: the text is not JSON. */
export const PARSE_ERROR = -32700;
/** JSON-RPC 2.0: the JSON is not a valid request object (too large included). */
export const INVALID_REQUEST = -32600;

/** An error answer written by the transport itself, before any MCP handling. */
export interface JsonRpcErrorAnswer {
  readonly jsonrpc: '2.0';
  /** The request's id, or null when it could not be read (as JSON-RPC 2.0 requires). */
  readonly id: JsonRpcId | null;
  readonly error: { readonly code: number; readonly message: string; readonly data?: unknown };
}

/** What one inbound line is: a message for the server, an error to answer, or nothing. */
export type InboundLine =
  | { readonly message: JSONRPCMessage }
  | { readonly answer: JsonRpcErrorAnswer }
  | undefined;

/** An error answer to the request `id`. */
export function jsonRpcErrorAnswer(
  id: JsonRpcId | null,
  code: number,
  message: string,
  data?: unknown,
): JsonRpcErrorAnswer {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

/** The answer to a message longer than `maxBytes`, under its own id when it could be found. */
export function tooLargeAnswer(id: JsonRpcId | null, bytes: number, maxBytes: number) {
  return jsonRpcErrorAnswer(
    id,
    INVALID_REQUEST,
    `Request too large: the message is ${bytes} bytes; the limit is ${maxBytes}`,
    { bytes, maxBytes },
  );
}

function ownField(value: object, key: string): unknown {
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

/** The id of a request-shaped value (an object with a string or number id), else null. */
function requestIdOf(value: unknown): JsonRpcId | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = ownField(value, 'id');
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

function isResponseShaped(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    ownField(value, 'method') === undefined &&
    (Object.hasOwn(value, 'result') || Object.hasOwn(value, 'error'))
  );
}

/**
 * Reads one line of a stdio connection. Blank lines are nothing; text that is not JSON is
 * answered with a parse error (id null); JSON that is not a valid JSON-RPC message (`params`
 * a string, a batch, a missing `method`) is answered with an invalid-request error under its
 * id when it has one. A malformed response from the client is dropped: responses get no answer.
 */
export function readInboundLine(
  line: Buffer,
  parseMessage: (value: unknown) => JSONRPCMessage,
): InboundLine {
  const text = line.toString('utf8').replace(/\r$/, '');
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { answer: jsonRpcErrorAnswer(null, PARSE_ERROR, 'Parse error: the line is not JSON') };
  }
  try {
    return { message: parseMessage(value) };
  } catch {
    if (isResponseShaped(value)) return undefined;
    const detail = Array.isArray(value)
      ? 'batches are not supported'
      : 'expected a JSON-RPC 2.0 request or notification with object params';
    return {
      answer: jsonRpcErrorAnswer(requestIdOf(value), INVALID_REQUEST, `Invalid Request: ${detail}`),
    };
  }
}
