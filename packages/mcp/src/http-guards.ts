import { timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a browser `Origin` may call: the allowed list, or loopback origins by default. */
export function originAllowed(
  origin: string | undefined,
  allowed: readonly string[] | undefined,
): boolean {
  if (origin === undefined) return true;
  if (allowed !== undefined) return allowed.includes(origin);
  try {
    return LOOPBACK_HOSTS.has(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** Whether an `Authorization` header carries `Bearer <token>`, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const presented = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const expected = Buffer.from(token);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/** Answers a request with `status` and a JSON-RPC error (id null) before any MCP handling. */
export function refuse(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}
