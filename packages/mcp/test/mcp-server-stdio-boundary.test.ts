import { afterEach, describe, expect, it } from 'vitest';
import { line, OPENING, type StdioWire, startStdioWire } from './stdio-wire.js';

const add = (id: string) =>
  line({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'add', arguments: { a: 1, b: 2 } },
  });

describe('createMcpServer over stdio, sent raw bytes', () => {
  let wire: StdioWire;
  afterEach(async () => {
    await wire.close();
  });

  it('answers a 10 MB request line under its own id and serves the requests after it', async () => {
    wire = startStdioWire();
    await wire.write(OPENING);
    expect(await wire.answer('init')).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
    const padding = 'x'.repeat(10 * 1024 * 1024);
    await wire.write(
      `{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"add","arguments":{"pad":"${padding}","a":1,"b":2}}}\n`,
    );
    await wire.write(add('after'));
    expect(await wire.answer('big')).toMatchObject({
      error: { code: -32600, data: { maxBytes: 4 * 1024 * 1024 } },
    });
    expect(await wire.answer('after')).toMatchObject({ result: { structuredContent: { sum: 3 } } });
    expect(wire.child.exitCode).toBe(null);
  });

  it('answers a request whose params are not an object, and a line that is not JSON', async () => {
    wire = startStdioWire();
    await wire.write(OPENING);
    await wire.answer('init');
    await wire.write('{"jsonrpc":"2.0","id":"j2","method":"tools/call","params":"str"}\n');
    expect(await wire.answer('j2')).toMatchObject({ error: { code: -32600 } });
    await wire.write('{"jsonrpc":"2.0","id":"j3",\n');
    expect(await wire.answer(null)).toMatchObject({ error: { code: -32700 } });
    await wire.write(add('after'));
    expect(await wire.answer('after')).toMatchObject({ result: { structuredContent: { sum: 3 } } });
  });

  it('gives arguments nested 10,000 deep the depth error the model can read', async () => {
    wire = startStdioWire();
    await wire.write(OPENING);
    await wire.answer('init');
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    await wire.write(
      `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2,"x":${deep}}}}\n`,
    );
    const answer = await wire.answer('deep');
    expect(answer).toMatchObject({ result: { isError: true } });
    expect(JSON.stringify(answer)).toContain('nested too deeply');
  });
});
