// An agent that reads and searches a repository through the dispatcher, with root-scoped host
// tools. A scripted model stands in for a real one: it searches for a name, outlines the file it
// found, reads the symbol's lines, tries to read outside the root (refused), and answers.
// Run: npm run build && npx tsx examples/repository-reader.ts [repository directory]

import { readTools, withHostToolResults } from '@switchyard/host-tools';
import { agentLoop, composeToolCallers, createToolRegistry } from 'switchyard';
import type { ModelRequest } from 'switchyard/providers';
import { createScriptedModel } from 'switchyard/testing';

const root = process.argv[2] ?? process.cwd();

/** The JSON a tool returned in the last tool message (the scripted model reads it back). */
function lastResult(request: ModelRequest, index = 0): Record<string, unknown> {
  const last = request.messages.at(-1);
  const content = last?.role === 'tool' ? last.results[index]?.content : undefined;
  try {
    return JSON.parse(content ?? '{}') as Record<string, unknown>;
  } catch {
    return { text: content };
  }
}

const model = createScriptedModel({
  turns: [
    {
      text: 'Searching the sources for defineTool.',
      toolCalls: [
        {
          name: 'search_files',
          arguments: { pattern: 'export function defineTool', path: 'src', max_matches: 1 },
        },
      ],
    },
    (request) => {
      const [match] = (lastResult(request).matches ?? []) as { path: string; line: number }[];
      return {
        text: 'Outlining the file it is in.',
        toolCalls: [{ name: 'get_file_outline', arguments: { path: match?.path ?? 'README.md' } }],
      };
    },
    (request) => {
      const outline = lastResult(request) as {
        path?: string;
        symbols?: { name: string; line: number; end_line: number }[];
      };
      const symbol = outline.symbols?.find((each) => each.name === 'defineTool');
      return {
        text: 'Reading the function, and (by mistake) a file outside the repository.',
        toolCalls: [
          {
            name: 'read_file',
            arguments: {
              path: outline.path ?? 'README.md',
              start_line: symbol?.line ?? 1,
              end_line: Math.min(symbol?.end_line ?? 20, (symbol?.line ?? 1) + 15),
            },
          },
          { name: 'read_file', arguments: { path: '../../etc/passwd' } },
        ],
      };
    },
    (request) => {
      const read = lastResult(request, 0) as { path?: string; start_line?: number };
      const refused = request.messages.at(-1);
      const denied = refused?.role === 'tool' ? refused.results[1]?.content : '';
      return {
        text: `defineTool is in ${read.path} from line ${read.start_line}. The other read was refused: ${denied}`,
      };
    },
  ],
});

const run = await agentLoop({
  task: 'Where is defineTool defined, and what does it check?',
  model,
  tools: createToolRegistry(readTools({ root, excludeGlobs: ['node_modules/**', 'dist/**'] })),
  toolCaller: composeToolCallers([withHostToolResults()]),
});
console.log(run.status);
console.log(run.text);
for (const turn of run.turns) {
  for (const result of turn.results) console.log(`- ${result.toolName}: ${result.status}`);
}
