import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createDispatcher } from 'switchyard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceServer } from '../../../test/support/mcp-reference-servers.js';
import { connectMcpServers, McpConnectError } from '../src/index.js';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        resolve(typeof address === 'object' && address !== null ? address.port : 0),
      );
    });
  });
}

describe('MCP client over Streamable HTTP (everything reference server)', () => {
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    child = spawn(process.execPath, [referenceServer('server-everything'), 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      let text = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('listening')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${text}`)));
    });
  });
  afterAll(async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  });

  it('lists and calls tools, with progress', async () => {
    const mcp = await connectMcpServers([{ name: 'web', transport: 'http', url }]);
    try {
      const dispatcher = createDispatcher({ registry: mcp.registry, executors: [mcp.executor] });
      const progress: unknown[] = [];
      dispatcher.events$.subscribe((event) => {
        if (event.type === 'tool_call_progress') progress.push(event.progress);
      });
      const sum = await dispatcher.dispatch({
        id: 'h1',
        name: 'web__get-sum',
        arguments: '{"a":2,"b":3}',
      });
      expect(sum).toMatchObject({
        ok: true,
        executor: 'mcp_server',
        renderedResult: 'The sum of 2 and 3 is 5.',
      });
      const slow = await dispatcher.dispatch({
        id: 'h2',
        name: 'web__trigger-long-running-operation',
        arguments: '{"duration":0.2,"steps":4}',
      });
      expect(slow.ok).toBe(true);
      expect(progress.length).toBeGreaterThanOrEqual(3);
    } finally {
      await mcp.close();
    }
  });

  it('names the server it cannot reach', async () => {
    const port = await freePort();
    await expect(
      connectMcpServers([{ name: 'gone', transport: 'http', url: `http://127.0.0.1:${port}/mcp` }]),
    ).rejects.toSatisfy((error) => McpConnectError.isInstance(error) && error.server === 'gone');
  });
});
