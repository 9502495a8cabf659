// The client leg of the MCP conformance suite: `conformance client --command "node client.mjs"`
// appends the test server's URL; this connects Switchyard's client to it and calls every tool it
// lists through a dispatcher, as an agent would (each scenario's server checks what it sees).
import { connectMcpServers } from '@switchyard/mcp';
import { createDispatcher } from 'switchyard';

const url = process.argv.at(-1);
const mcp = await connectMcpServers([{ name: 'suite', transport: 'http', url }]);
try {
  const dispatcher = createDispatcher({ registry: mcp.registry, executors: [mcp.executor] });
  for (const tool of mcp.registry.list()) {
    const result = await dispatcher.dispatch({
      id: tool.name,
      name: tool.name,
      arguments: JSON.stringify({ a: 5, b: 3 }),
    });
    console.log(tool.name, result.status, result.renderedResult);
  }
  console.log('skipped', JSON.stringify(mcp.skipped));
} finally {
  await mcp.close();
}
