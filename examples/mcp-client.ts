// MCP servers' tools dispatched through Switchyard: the filesystem reference server over stdio.
// Run: npm run build && npx tsx examples/mcp-client.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectMcpServers } from '@switchyard/mcp';
import { composeToolCallers, createDispatcher, type ToolCaller } from 'switchyard';

const root = mkdtempSync(join(tmpdir(), 'switchyard-mcp-example-'));
const mcp = await connectMcpServers([
  {
    name: 'fs',
    transport: 'stdio',
    command: 'node_modules/.bin/mcp-server-filesystem',
    args: [root],
    // Believe its readOnlyHint/idempotentHint annotations (untrusted servers get none of that).
    trusted: true,
  },
]);

// Any middleware runs for MCP tools exactly as for local ones.
const log: ToolCaller = async (call, next) => {
  const result = await next(call);
  console.log(`${call.toolName} → ${result.status} on ${result.executor}`, result.audit?.executor);
  return result;
};
const dispatcher = createDispatcher({
  registry: mcp.registry,
  executors: [mcp.executor],
  caller: composeToolCallers([log]),
});

console.log(mcp.registry.names().slice(0, 5), `… ${mcp.registry.size} tools`);
const path = join(root, 'hello.txt');
await dispatcher.dispatch({
  id: 'call_1',
  name: 'fs__write_file',
  arguments: JSON.stringify({ path, content: 'hello' }),
});
const read = await dispatcher.dispatch({
  id: 'call_2',
  name: 'fs__read_text_file',
  arguments: JSON.stringify({ path }),
});
console.log(read.result); // { content: 'hello' }
const outside = await dispatcher.dispatch({
  id: 'call_3',
  name: 'fs__read_text_file',
  arguments: JSON.stringify({ path: '/etc/passwd' }),
});
console.log(outside.errorCategory, outside.observation.split('\n')[1]); // tool_error, access denied …

// Between turns: pick up servers' tools/list_changed.
if (mcp.toolsChanged) await mcp.refresh();
await mcp.close();
rmSync(root, { recursive: true, force: true });
