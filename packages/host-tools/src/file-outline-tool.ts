import { refusedOutput } from './host-refusal.js';
import type { HostToolDefinition } from './host-tool-set.js';
import { openScoped } from './open-scoped.js';
import { keywordSymbols, treeSymbols } from './outline-symbols.js';
import { looksBinary, readBounded } from './read-bounded.js';
import { type ReadContext, readSafety } from './read-context.js';
import { grammarFor, withSyntaxTree } from './tree-sitter-grammars.js';

interface OutlineArgs {
  readonly path: string;
  readonly max_symbols?: number;
}

const SCHEMA = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'Source file relative to the root.' },
    max_symbols: { type: 'integer', minimum: 1, maximum: 5000, description: 'Default 500.' },
  },
  required: ['path'],
  additionalProperties: false,
} as const;

async function outline(context: ReadContext, args: OutlineArgs): Promise<unknown> {
  const opened = await openScoped(context.scope, args.path, { capability: 'filesystem.read' });
  if (!opened.ok) return refusedOutput(opened.denial);
  let text: string;
  try {
    const read = await readBounded(opened.handle, 0, context.maxFileBytes, opened.path.relative);
    if (looksBinary(read.bytes)) throw new Error(`binary file: ${opened.path.relative}`);
    text = read.bytes.toString('utf8');
  } finally {
    await opened.handle.close();
  }
  const limit = args.max_symbols ?? 500;
  const path = opened.path.relative;
  const grammar = grammarFor(path);
  const parsed =
    grammar === undefined
      ? undefined
      : await withSyntaxTree(grammar, text, (root) => treeSymbols(root, limit));
  if (parsed !== undefined)
    return { path, language: grammar, parser: 'tree-sitter', symbols: parsed };
  return {
    path,
    language: grammar ?? null,
    parser: 'keywords',
    symbols: keywordSymbols(text, limit),
  };
}

/**
 * `get_file_outline`: the classes, functions, methods and types of a source file with their line
 * ranges, parsed by tree-sitter's WASM grammars (`@vscode/tree-sitter-wasm`, optional) or, without
 * them, read from lines that start with a definition keyword.
 */
export function fileOutlineTool(context: ReadContext): HostToolDefinition {
  return {
    key: 'get_file_outline',
    group: 'read',
    build: (nameOf) => ({
      name: 'get_file_outline',
      description: `List the symbols (classes, functions, methods, types) of a source file with their line ranges; then read a symbol with ${nameOf('read_file')} start_line/end_line.`,
      inputSchema: SCHEMA,
      safety: readSafety(context.scope),
      resourceParams: ['path'],
      handler: (args: OutlineArgs) => outline(context, args),
    }),
  };
}
