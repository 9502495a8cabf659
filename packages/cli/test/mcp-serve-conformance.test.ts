import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { runConformance } from '../../mcp/test/conformance/run-conformance.js';
import { runMcpServeCommand } from '../src/mcp-serve-command.js';

const tools = fileURLToPath(new URL('../../mcp/test/conformance/tools.mjs', import.meta.url));

it('switchyard mcp serve --http passes the MCP conformance suite, but for what it does not serve', async () => {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const stop = new AbortController();
  const serving = runMcpServeCommand([tools, '--http', '127.0.0.1:0'], {
    stderr,
    signal: stop.signal,
  });
  await expect.poll(() => text).toMatch(/serving \d+ tools at/);
  const url = /at (\S+)/.exec(text)?.[1] ?? '';
  try {
    const active = await runConformance(['server', '--url', url]);
    expect(active.output).toMatch(/tools-call-audio: 1 passed, 0 failed/);
    expect(active.code, active.output).toBe(0);
    const schema = await runConformance([
      'server',
      '--url',
      url,
      '--scenario',
      'json-schema-2020-12',
    ]);
    expect(schema.code, schema.output).toBe(0);
  } finally {
    stop.abort();
    expect(await serving).toBe(0);
  }
}, 120_000);
