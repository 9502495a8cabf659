import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { connectMcpServers } from '@switchyard/mcp';
import { createDispatcher } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../../../test/support/mcp-reference-servers.js';
import { runMcpServeCommand } from '../src/mcp-serve-command.js';

const toolsModule = fileURLToPath(new URL('./fixtures/tools-module.ts', import.meta.url));
const launcher = fileURLToPath(new URL('./fixtures/serve-cli.ts', import.meta.url));

function captured(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  return { stream, text: () => text };
}

describe('switchyard mcp serve', () => {
  it('prints usage and exits 2 without a tools module', async () => {
    const stderr = captured();
    expect(await runMcpServeCommand([], { stderr: stderr.stream })).toBe(2);
    expect(stderr.text()).toContain('switchyard mcp serve <tools-module>');
  });

  it('exits 3 naming the problem when the module has no tools', async () => {
    const stderr = captured();
    const noTools = fileURLToPath(
      new URL('../../../test/support/mcp-reference-servers.ts', import.meta.url),
    );
    const code = await runMcpServeCommand([noTools], { stderr: stderr.stream });
    expect(code).toBe(3);
    expect(stderr.text()).toMatch(/must export a ToolRegistry/);
  });

  it('serves a tools module over HTTP with its middleware until stopped', async () => {
    const stderr = captured();
    const stop = new AbortController();
    const running = runMcpServeCommand([toolsModule, '--http', '127.0.0.1:0'], {
      stderr: stderr.stream,
      signal: stop.signal,
    });
    await expect.poll(() => stderr.text()).toMatch(/serving 4 tools at/);
    const url = /at (\S+)/.exec(stderr.text())?.[1] ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 'cli-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect(await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } })).toMatchObject({
      structuredContent: { sum: 2 },
    });
    await client.callTool({ name: 'boom', arguments: {} });
    const limited = await client.callTool({ name: 'boom', arguments: {} });
    expect(JSON.stringify(limited.content)).toMatch(/rate limit/);
    await client.close();
    stop.abort();
    expect(await running).toBe(0);
  });

  it('bounds requests and sessions as its flags say', async () => {
    const stderr = captured();
    const stop = new AbortController();
    const running = runMcpServeCommand(
      [toolsModule, '--http', '127.0.0.1:0', '--max-message-bytes', '1024', '--max-sessions', '2'],
      { stderr: stderr.stream, signal: stop.signal },
    );
    await expect.poll(() => stderr.text()).toMatch(/serving 4 tools at/);
    const url = /at (\S+)/.exec(stderr.text())?.[1] ?? '';
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'add', arguments: { a: 1, b: 2, pad: 'x'.repeat(2048) } },
    });
    const answer = await fetch(url, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
    });
    expect(answer.status).toBe(413);
    stop.abort();
    expect(await running).toBe(0);
    const refused = captured();
    const code = await runMcpServeCommand(
      [toolsModule, '--http', '127.0.0.1:0', '--session-idle-ms', '0'],
      { stderr: refused.stream },
    );
    expect(code).toBe(1);
    expect(refused.text()).toMatch(/sessionIdleMs/);
  });

  it('serves over stdio in its own process, driven by the Switchyard client', async () => {
    const mcp = await connectMcpServers([
      {
        name: 'cli',
        transport: 'stdio',
        command: process.execPath,
        args: ['--import', 'tsx', launcher, toolsModule],
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
      },
    ]);
    const pid = await mcp.connection('cli')?.pid();
    try {
      const dispatcher = createDispatcher({ registry: mcp.registry, executors: [mcp.executor] });
      const sum = await dispatcher.dispatch({
        id: 's1',
        name: 'cli__add',
        arguments: '{"a":20,"b":22}',
      });
      expect(sum).toMatchObject({ ok: true, result: { sum: 42 } });
    } finally {
      await mcp.close();
    }
    expect(pid !== null && pid !== undefined && isAlive(pid)).toBe(false);
  });
});
