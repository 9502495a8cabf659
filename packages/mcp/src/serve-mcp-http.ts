import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type {
  Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { InvalidOptionError } from 'switchyard';
import { bearerMatches, originAllowed, refuse } from './http-guards.js';
import { HttpSessions } from './http-sessions.js';
import { loadServerSdk } from './load-mcp-sdk.js';
import { readRequestBody, webRequestOf, writeWebResponse } from './node-web-bridge.js';

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
  /**
   * Live 2025-era sessions at once (each holds one server instance). Default 64. When all are
   * taken, the least recently active idle session is closed to make room.
   */
  readonly maxSessions?: number;
  /** A 2025-era session with no request for this long is closed. Default 600 000 (10 minutes). */
  readonly sessionIdleMs?: number;
}

/** A running HTTP server. */
export interface McpHttpServing {
  /** Where clients connect, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: string;
  close(): Promise<void>;
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

const DEFAULT_SESSION_IDLE_MS = 600_000;

/**
 * Serves MCP over Streamable HTTP with node:http: the 2026-07-28 revision (one server instance per
 * exchange) and, for 2025-era clients that `initialize`, a session each (so their
 * `notifications/cancelled` reach the call they cancel), bounded by `HttpSessions`; other
 * sessionless 2025 traffic is served statelessly. Checks `Origin` (DNS-rebinding defence), then
 * the bearer token and the `authenticate` hook, before any MCP handling. A body is read once,
 * bounded by `maxBodyBytes` (past it: 413), and handed to the SDK's web-standard handlers as the
 * text that arrived: never re-serialised, so no depth of nesting can break the exchange.
 */
export async function serveMcpHttp(
  sdkServer: () => Promise<Server>,
  options: McpHttpOptions,
  maxBodyBytes: number,
): Promise<McpHttpServing> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  if (options.bearerToken !== undefined && options.bearerToken.length < 16) {
    throw new InvalidOptionError(
      'bearerToken',
      'serveHttp: bearerToken must be at least 16 characters',
    );
  }
  const maxSessions = options.maxSessions ?? 64;
  if (!Number.isInteger(maxSessions) || maxSessions < 1) {
    throw new InvalidOptionError('maxSessions', 'serveHttp: maxSessions must be an integer ≥ 1');
  }
  const idleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  if (!(Number.isFinite(idleMs) && idleMs > 0)) {
    throw new InvalidOptionError(
      'sessionIdleMs',
      'serveHttp: sessionIdleMs must be a positive number',
    );
  }
  const sdk = await loadServerSdk();
  const handler = sdk.createMcpHandler(() => sdkServer(), {
    legacy: 'stateless',
    maxRequestBodySize: maxBodyBytes,
  });
  const sessions = new HttpSessions<WebStandardStreamableHTTPServerTransport>({
    maxSessions,
    idleMs,
  });
  // Often enough that a session outlives its idle time by at most about a minute.
  const sweepMs = Math.max(1000, Math.min(idleMs, 60_000));
  const sweep = setInterval(() => void sessions.closeIdle(), sweepMs);
  sweep.unref();

  /** A 2025-era `initialize` (by the SDK's own rule: no 2026-07-28 envelope) opens a session. */
  function opensSession(request: IncomingMessage, body: unknown): boolean {
    if (body === undefined) return false;
    const protocolVersionHeader = header(request, 'mcp-protocol-version');
    const mcpMethodHeader = header(request, 'mcp-method');
    const outcome = sdk.classifyInboundRequest({
      httpMethod: 'POST',
      body,
      ...(protocolVersionHeader === undefined ? {} : { protocolVersionHeader }),
      ...(mcpMethodHeader === undefined ? {} : { mcpMethodHeader }),
    });
    return outcome.kind === 'legacy' && outcome.reason === 'initialize';
  }

  async function openSession(request: Request, body: unknown): Promise<Response> {
    const release = await sessions.reserve();
    if (release === undefined) {
      return Response.json(
        { jsonrpc: '2.0', error: { code: -32000, message: 'too many sessions busy' }, id: null },
        { status: 503, headers: { 'retry-after': '1' } },
      );
    }
    try {
      const transport: WebStandardStreamableHTTPServerTransport =
        new sdk.WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => sessions.add(id, transport),
          onsessionclosed: (id) => sessions.delete(id),
          maxRequestBodySize: maxBodyBytes,
        });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      };
      const server = await sdkServer();
      await server.connect(transport);
      const answer = await transport.handleRequest(request, { parsedBody: body });
      if (transport.sessionId === undefined) await server.close();
      return answer;
    } finally {
      release();
    }
  }

  async function route(request: IncomingMessage, response: ServerResponse, url: URL) {
    // The SDK notices a client that went away through the request's signal.
    const gone = new AbortController();
    response.once('close', () => gone.abort());
    let text: string | undefined;
    let body: unknown;
    if (request.method === 'POST') {
      const read = await readRequestBody(request, maxBodyBytes);
      if (read.tooLarge) {
        return refuse(response, 413, `request body too large: the limit is ${maxBodyBytes} bytes`, {
          connection: 'close',
        });
      }
      text = read.text;
      body = parsedJson(text);
    }
    const webRequest = webRequestOf(request, url, text, gone.signal);
    const parsed = body === undefined ? {} : { parsedBody: body };
    const sessionId = header(request, 'mcp-session-id');
    if (sessionId !== undefined) {
      const transport = sessions.get(sessionId);
      if (transport === undefined) return refuse(response, 404, 'session not found');
      // An open GET stream only listens: it does not keep its session from idling out.
      const end = request.method === 'GET' ? undefined : sessions.begin(sessionId);
      try {
        return await writeWebResponse(await transport.handleRequest(webRequest, parsed), response);
      } finally {
        end?.();
      }
    }
    if (request.method === 'POST' && opensSession(request, body)) {
      return writeWebResponse(await openSession(webRequest, body), response);
    }
    await writeWebResponse(await handler.fetch(webRequest, parsed), response);
  }

  async function onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== path) {
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
    await route(request, response, url);
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
      clearInterval(sweep);
      await sessions.closeAll();
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
