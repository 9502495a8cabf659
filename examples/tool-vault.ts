// The README's tool vault: search deferred tools on their own, then let an agent find one.
// Run: npm run build && npx tsx examples/tool-vault.ts

import { createToolSearch, toolSearch } from '@switchyard/vault';
import { agentLoop, createToolRegistry, defineTool } from 'switchyard';
import { createScriptedModel } from 'switchyard/testing';

const echo = defineTool({
  name: 'echo',
  description: 'Repeat the text back.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  handler: (args) => args,
});
const readFile = defineTool<{ path: string }, string>({
  name: 'read_file',
  description: 'Read a text file from the workspace.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  safety: { readOnly: true },
  deferLoading: true,
  handler: ({ path }) => `contents of ${path}`,
});
const sendEmail = defineTool({
  name: 'sendEmail',
  description: 'Deliver a message to recipients.',
  inputSchema: { type: 'object', properties: { to: { type: 'string' }, body: { type: 'string' } } },
  deferLoading: true,
  handler: () => 'sent',
});

// 1. On its own: ranked names with scores.
const search = createToolSearch({ tools: [readFile, sendEmail], variant: 'hybrid' });
console.log(await search.search('open a file', { limit: 3 })); // [{ name: 'read_file', score: … }]

// 2. In the loop: deferred tools stay hidden until the model's search promotes them.
const model = createScriptedModel({
  turns: [
    { toolCalls: [{ name: 'tool_search', arguments: { query: 'read a file' } }] },
    (request) =>
      request.tools.some((tool) => tool.name === 'read_file')
        ? { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] }
        : { text: 'read_file was not loaded.' },
    { text: 'Read it.' },
  ],
});
const run = await agentLoop({
  task: 'Show me notes.txt',
  model,
  tools: createToolRegistry([echo, readFile, sendEmail]),
  toolSearch: toolSearch({ variant: 'bm25', budgetTokens: 4000 }),
  onEvent: (event) => {
    if (event.type === 'tool_search_result') console.log('promoted', event.promoted);
  },
});
console.log(
  run.status,
  run.results.map((result) => [result.toolName, result.result]),
);
