import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/server';
import { InvalidOptionError } from 'switchyard';
import { loadNodeAdapter, loadServerSdk } from './load-mcp-sdk.js';

/** Options of `serveHttp`. */
export interface McpHttpOptions {
  /** Interface to bind. Default `127.0.0.1` (loopback only, as the spec asks of local servers). */
  readonly host?: string;
  /** Default 0: any free port (read it from `url`). */
  readonly port?: number;
  /** Default `/mcp`. */
  readonly path?: string;
  /**
   * Origins browsers may call from. Default: loopback origins only. A request without an
   * `Origin` header (not a browser) is allowed.
   */
  readonly allowedOrigins?: readonly string[];
  /** Requests must carry `Authorization: Bearer <token>`. */
  readonly bearerToken?: string;
  /** Your own check of each request (after the bearer token); false answers 401. */
  readonly authenticate?: (request: IncomingMessage) => boolean | Promise<boolean>;
  /** Open connections at once. Default 64. */
  readonly maxConnections?: number;
  /** Live 2025-era sessions at once (each holds one server instance). Default 64. */
  readonly maxSessions?: number;
}

/** A running HTTP server. */
export interface McpHttpServing {
  /** Where clients connect, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The JSON body of a POST, bounded; undefined when it is not JSON (the SDK answers that). */
async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES)
      throw Object.assign(new Error('request body too large'), { status: 413 });
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some(
    (message) =>
      typeof message === 'object' &&
      message !== null &&
      (message as { method?: unknown }).method === 'initialize',
  );
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function originAllowed(
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

function bearerMatches(header: string | undefined, token: string): boolean {
  const presented = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const expected = Buffer.from(token);
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

function refuse(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/**
 * Serves MCP over Streamable HTTP with node:http: the 2026-07-28 revision (one server instance per
 * exchange) and, for 2025-era clients that `initialize`, a session each (so their
 * `notifications/cancelled` reach the call they cancel); other sessionless 2025 traffic is served
 * statelessly. Checks `Origin` (DNS-rebinding defence), then the bearer token and the
 * `authenticate` hook, before any MCP handling.
 */
export async function serveMcpHttp(
  sdkServer: () => Promise<Server>,
  options: McpHttpOptions,
): Promise<McpHttpServing> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  if (options.bearerToken !== undefined && options.bearerToken.length < 16) {
    throw new InvalidOptionError(
      'bearerToken',
      'serveHttp: bearerToken must be at least 16 characters',
    );
  }
  const { createMcpHandler } = await loadServerSdk();
  const { toNodeHandler, NodeStreamableHTTPServerTransport } = await loadNodeAdapter();
  const handler = createMcpHandler(() => sdkServer(), { legacy: 'stateless' });
  const handle = toNodeHandler(handler);
  const maxSessions = options.maxSessions ?? 64;
  /** Live 2025-era sessions by id. */
  const sessions = new Map<string, InstanceType<typeof NodeStreamableHTTPServerTransport>>();

  async function openSession(request: IncomingMessage, response: ServerResponse, body: unknown) {
    if (sessions.size >= maxSessions) return refuse(response, 503, 'too many sessions');
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    const server = await sdkServer();
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = sessions.get(sessionId);
      if (transport === undefined) return refuse(response, 404, 'session not found');
      const body = request.method === 'POST' ? await readJson(request) : undefined;
      return transport.handleRequest(request, response, body);
    }
    if (request.method !== 'POST') return handle(request, response);
    const body = await readJson(request);
    if (isInitialize(body)) return openSession(request, response, body);
    return handle(request, response, body);
  }

  async function onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== path) {
      return refuse(response, 404, 'not found');
    }
    if (!originAllowed(request.headers.origin, options.allowedOrigins)) {
      return refuse(response, 403, 'origin not allowed');
    }
    const challenge = { 'www-authenticate': 'Bearer' };
    if (
      options.bearerToken !== undefined &&
      !bearerMatches(request.headers.authorization, options.bearerToken)
    ) {
      return refuse(response, 401, 'unauthorized', challenge);
    }
    if (options.authenticate !== undefined && !(await options.authenticate(request))) {
      return refuse(response, 401, 'unauthorized', challenge);
    }
    await route(request, response);
  }

  const server = createServer((request, response) => {
    onRequest(request, response).catch(() => {
      if (!response.headersSent) refuse(response, 500, 'internal error');
      else response.end();
    });
  });
  server.maxConnections = options.maxConnections ?? 64;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}${path}`,
    async close() {
      await Promise.allSettled([...sessions.values()].map((transport) => transport.close()));
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
