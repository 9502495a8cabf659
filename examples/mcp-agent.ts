// An agent whose tools include an MCP server's: agentLoop opens the MCP tool source (the filesystem
// reference server), offers its tools beside a local one, picks up tools/list_changed between
// turns, and closes the server when the run ends. A scripted model stands in for a real one.
// Run: npm run build && npx tsx examples/mcp-agent.ts
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stdlibTools } from '@switchyard/host-tools';
import { mcpToolSource } from '@switchyard/mcp';
import { agentLoop, createToolRegistry } from 'switchyard';
import { createScriptedModel } from 'switchyard/testing';

const root = mkdtempSync(join(tmpdir(), 'switchyard-mcp-agent-'));
writeFileSync(join(root, 'notes.txt'), 'Ship on Thursday. Seven reviewers signed off.\n');

const model = createScriptedModel({
  turns: [
    {
      text: 'Reading the notes and counting their e letters.',
      toolCalls: [
        { name: 'fs__read_text_file', arguments: { path: join(root, 'notes.txt') } },
        { name: 'count_characters', arguments: { text: 'Ship on Thursday.', char: 'e' } },
      ],
    },
    { text: 'The notes say to ship on Thursday.' },
  ],
});

const run = await agentLoop({
  task: 'What do the notes say?',
  model,
  tools: createToolRegistry(stdlibTools({ workers: false })),
  toolSource: mcpToolSource([
    {
      name: 'fs',
      transport: 'stdio',
      command: 'node_modules/.bin/mcp-server-filesystem',
      args: [root],
      trusted: true, // believe its readOnlyHint: its reads may start while the model streams
    },
  ]),
  onEvent: (event) => {
    if (event.type === 'tool_call_update' && event.status !== 'in_progress') {
      console.log(`${event.toolName} → ${event.resultStatus} on ${event.executor}`);
    }
  },
});

console.log(run.status, '·', run.text);
console.log(
  model.requests[0]?.tools.map((tool) => tool.name).filter((name) => name.startsWith('fs__'))
    .length,
  'MCP tools offered',
);
rmSync(root, { recursive: true, force: true });
