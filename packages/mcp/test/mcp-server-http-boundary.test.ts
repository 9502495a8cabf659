import { request } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createDispatcher, InvalidOptionError } from 'switchyard';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcpServers, createMcpServer, type McpHttpServing } from '../src/index.js';
import { fixtureRegistry } from './server-fixture.js';

interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The JSON-RPC message: the body, or the first SSE `data:` line. */
  readonly message: Record<string, unknown> | undefined;
}

/** One raw HTTP POST, as any client (or attacker) can send it. */
function post(url: string, body: string | Buffer, headers: Record<string, string> = {}) {
  return new Promise<RawAnswer>((resolve, reject) => {
    const sent = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () => {
          const data = /^data: (.*)$/m.exec(text)?.[1] ?? text;
          let message: Record<string, unknown> | undefined;
          try {
            message = JSON.parse(data) as Record<string, unknown>;
          } catch {}
          resolve({ status: response.statusCode ?? 0, headers: response.headers, message });
        });
      },
    );
    // The server may answer and close before the whole body is sent.
    sent.on('error', reject);
    sent.end(body);
  });
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
});

function call(id: string, argumentsJson: string): string {
  return `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"add","arguments":${argumentsJson}}}`;
}

describe('serveHttp, sent raw requests', () => {
  let http: McpHttpServing;
  afterEach(async () => {
    await http.close();
  });

  it('answers a 10 MB body with 413 and goes on serving', async () => {
    http = await createMcpServer({ registry: fixtureRegistry }).serveHttp();
    const big = call('big', `{"a":1,"b":2,"pad":"${'x'.repeat(10 * 1024 * 1024)}"}`);
    expect((await post(http.url, big)).status).toBe(413);
    const after = await post(http.url, call('after', '{"a":1,"b":2}'));
    expect(after.message).toMatchObject({ id: 'after', result: { structuredContent: { sum: 3 } } });
  });

  it('gives arguments nested 10,000 deep the same depth error as stdio', async () => {
    http = await createMcpServer({ registry: fixtureRegistry }).serveHttp();
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const answer = await post(http.url, call('deep', `{"a":1,"b":2,"x":${deep}}`));
    expect(answer.status).toBe(200);
    expect(answer.message).toMatchObject({ id: 'deep', result: { isError: true } });
    expect(JSON.stringify(answer.message)).toContain('nested too deeply');
  });

  it('answers a 2026-07-28 initialize with 404 and -32601, as SEP-2575 requires', async () => {
    http = await createMcpServer({ registry: fixtureRegistry }).serveHttp();
    const answer = await post(
      http.url,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'initialize',
        params: {
          protocolVersion: '2026-07-28',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'initialize' },
    );
    expect(answer.status).toBe(404);
    expect(answer.message).toMatchObject({ id: 7, error: { code: -32601 } });
    expect(answer.headers['mcp-session-id']).toBeUndefined();
  });

  it('still lets a client in after 64 sessions were opened and never closed', async () => {
    http = await createMcpServer({ registry: fixtureRegistry }).serveHttp();
    const abandoned: string[] = [];
    for (let index = 0; index < 64; index += 1) {
      const answer = await post(http.url, initialize);
      abandoned.push(String(answer.headers['mcp-session-id']));
    }
    const client = new Client({ name: 'later', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 2 } })).toMatchObject({
      structuredContent: { sum: 4 },
    });
    await client.close();
    // The least recently active abandoned session made room: its client must start a new one.
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect((await post(http.url, list, { 'mcp-session-id': abandoned[0] as string })).status).toBe(
      404,
    );
    const kept = await post(http.url, list, { 'mcp-session-id': abandoned[63] as string });
    expect(kept.status).toBe(200);
  });
});

describe('connectMcpServers over HTTP when the server forgets its session', () => {
  it('opens a new session and sends the call once more: a 404 means it never ran', async () => {
    const http = await createMcpServer({ registry: fixtureRegistry }).serveHttp({ maxSessions: 1 });
    const mcp = await connectMcpServers([{ name: 'ours', transport: 'http', url: http.url }]);
    try {
      const dispatcher = createDispatcher({ registry: mcp.registry, executors: [mcp.executor] });
      const call = (id: string) =>
        dispatcher.dispatch({ id, name: 'ours__add', arguments: '{"a":1,"b":2}' });
      expect(await call('before')).toMatchObject({ ok: true, result: { sum: 3 } });
      // Another client takes the only session slot: ours, idle, makes room.
      expect((await post(http.url, initialize)).headers['mcp-session-id']).toBeTypeOf('string');
      expect(await call('after')).toMatchObject({ ok: true, result: { sum: 3 } });
    } finally {
      await mcp.close();
      await http.close();
    }
  });
});

describe('serveHttp options', () => {
  it('rejects session bounds that would not bound anything, naming the option', async () => {
    const server = createMcpServer({ registry: fixtureRegistry });
    await expect(server.serveHttp({ sessionIdleMs: 0 })).rejects.toSatisfy(
      (error) => InvalidOptionError.isInstance(error) && error.option === 'sessionIdleMs',
    );
    await expect(server.serveHttp({ maxSessions: 0.5 })).rejects.toSatisfy(
      (error) => InvalidOptionError.isInstance(error) && error.option === 'maxSessions',
    );
  });
});
