// One `add` tool served by the compiled @switchyard/mcp: `stdio`, or `http` (prints its URL).
import { createMcpServer } from '@switchyard/mcp';
import { createToolRegistry, defineTool } from 'switchyard';

const registry = createToolRegistry([
  defineTool({
    name: 'add',
    description: 'Adds two numbers',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
    safety: { sideEffectLevel: 'none' },
    handler: ({ a, b }) => a + b,
  }),
]);
const server = createMcpServer({ registry });
if (process.argv[2] === 'http') {
  const serving = await server.serveHttp();
  process.stdout.write(`${serving.url}\n`);
  process.once('SIGTERM', () => void serving.close());
} else {
  await server.serveStdio();
}
