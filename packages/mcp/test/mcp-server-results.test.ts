import { createToolRegistry, defineTool, toolOutput } from 'switchyard';
import type { ContentBlock } from 'switchyard/dispatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer, type McpHttpServing } from '../src/index.js';
import { type AnyClient, connectSdkClients } from './sdk-clients.js';

// A handler in plain JavaScript may put any block in `content`.
const blocks = (value: unknown[]) => value as ContentBlock[];

const registry = createToolRegistry([
  defineTool({
    name: 'audio',
    description: 'Returns audio, a kind the core has no type for',
    inputSchema: { type: 'object' },
    handler: () =>
      toolOutput({
        value: 'a beep',
        content: blocks([{ type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' }]),
      }),
  }),
  defineTool({
    name: 'odd',
    description: 'Returns blocks no MCP client would accept as they are',
    inputSchema: { type: 'object' },
    handler: () =>
      toolOutput({
        value: 'odd',
        content: blocks([{ type: 'video', uri: 'x' }, { type: 'resource' }, { type: 'image' }, 7]),
      }),
  }),
  defineTool({
    name: 'typed',
    description: 'Breaks its own outputSchema',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
    handler: () => ({ n: 'one' }),
  }),
  defineTool({
    name: 'numbers',
    description: 'Returns an array, declared by its outputSchema',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'array', items: { type: 'number' } },
    handler: () => [1, 2, 3],
  }),
]);

describe('createMcpServer results, as the official SDK clients read them', () => {
  let http: McpHttpServing;
  const clients: Record<string, AnyClient> = {};

  beforeAll(async () => {
    http = await createMcpServer({ registry }).serveHttp();
    Object.assign(clients, await connectSdkClients(http.url));
  });
  afterAll(async () => {
    await Promise.all(Object.values(clients).map((client) => client.close()));
    await http.close();
  });

  it.each(['legacy', 'modern', 'v1'])('serves audio content as audio (%s)', async (which) => {
    const result = await (clients[which] as AnyClient).callTool({ name: 'audio', arguments: {} });
    expect(result.content).toEqual([{ type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' }]);
  });

  it.each(['legacy', 'modern', 'v1'])(
    'turns blocks missing what MCP requires into placeholder text (%s)',
    async (which) => {
      const result = await (clients[which] as AnyClient).callTool({ name: 'odd', arguments: {} });
      expect(result.content).toEqual([
        { type: 'text', text: '[video content]' },
        { type: 'text', text: '[resource content]' },
        { type: 'text', text: '[image content]' },
        { type: 'text', text: '[invalid content]' },
      ]);
    },
  );

  it.each(['legacy', 'modern', 'v1'])(
    'answers a value that breaks the outputSchema as an error, never as structuredContent (%s)',
    async (which) => {
      const result = await (clients[which] as AnyClient).callTool({ name: 'typed', arguments: {} });
      expect(result).toMatchObject({ isError: true });
      expect(result.structuredContent).toBeUndefined();
      expect(JSON.stringify(result.content)).toContain('outputSchema');
    },
  );

  it('serves a non-object structured value as it is to a 2026-07-28 client', async () => {
    const { tools } = await (clients.modern as AnyClient).listTools();
    expect(tools.find((tool) => tool.name === 'numbers')?.outputSchema).toMatchObject({
      type: 'array',
    });
    const result = await (clients.modern as AnyClient).callTool({ name: 'numbers', arguments: {} });
    expect(result.structuredContent).toEqual([1, 2, 3]);
  });

  it.each(['legacy', 'v1'])(
    'wraps a non-object structured value and its schema for a 2025-11-25 client (%s)',
    async (which) => {
      const client = clients[which] as AnyClient;
      const { tools } = await client.listTools();
      expect(tools.find((tool) => tool.name === 'numbers')?.outputSchema).toMatchObject({
        type: 'object',
        properties: { result: { type: 'array' } },
      });
      const result = await client.callTool({ name: 'numbers', arguments: {} });
      expect(result.structuredContent).toEqual({ result: [1, 2, 3] });
    },
  );
});
