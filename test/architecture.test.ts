import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The import rules of docs/architecture.md. `top` is the files directly under src/ (errors, option
// checks, entry points). A room missing here fails the test: add it to the doc and to this map.
const CORE = ['top', 'tools', 'dispatch', 'actors', 'middleware', 'streams', 'providers'];
const BUILT_ON_CORE = [...CORE, 'agent'];
const ALLOWED: Record<string, readonly string[]> = {
  top: ['dispatch', 'tools', 'actors', 'agent', 'middleware', 'providers', 'streams'],
  tools: ['top'],
  dispatch: ['top', 'tools'],
  actors: ['top', 'tools', 'dispatch'],
  middleware: ['top', 'tools', 'dispatch', 'actors'],
  streams: ['top', 'tools', 'dispatch', 'actors'],
  providers: ['top', 'tools', 'dispatch', 'streams'],
  // The agent loop reaches `mcp/` only lazily (see LAZY): the `mcpServers` option.
  agent: [...CORE, 'mcp'],
  testing: ['top', 'tools', 'dispatch', 'providers'],
  // Not the agent loop: it loads `mcp/`, and an import back would close a cycle.
  mcp: CORE,
  vault: BUILT_ON_CORE,
  'host-tools': BUILT_ON_CORE,
  adapters: BUILT_ON_CORE,
  queue: BUILT_ON_CORE,
  'binder-bench': BUILT_ON_CORE,
  cli: [
    ...BUILT_ON_CORE,
    'testing',
    'mcp',
    'vault',
    'host-tools',
    'adapters',
    'queue',
    'binder-bench',
  ],
};
// Rooms another room may import only through type imports and dynamic `import()`, so loading the
// importer never loads them (the agent loop imports `switchyard/mcp` only when given `mcpServers`).
const LAZY: Record<string, readonly string[]> = { agent: ['mcp'] };
// Entry points list the surface by name; they may re-export any room.
const ENTRY_FILES = new Set(['index.ts', 'executors.ts']);

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function roomOf(file: string): string {
  const parts = relative(SRC, file).split('/');
  return parts.length === 1 ? 'top' : (parts[0] ?? 'top');
}

function crossings(): string[] {
  const broken: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const room = roomOf(file);
    if (room === 'top' && ENTRY_FILES.has(relative(SRC, file))) continue;
    const allowed = ALLOWED[room];
    if (allowed === undefined) {
      broken.push(`${relative(SRC, file)}: room "${room}" is not in docs/architecture.md`);
      continue;
    }
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/^(import(?! type)|export)[^;]*? from '(\.[^']+)'/gms)) {
      const target = roomOf(resolve(dirname(file), match[2] ?? ''));
      if (LAZY[room]?.includes(target)) {
        broken.push(`${relative(SRC, file)} loads ${match[2]} eagerly (${room} → ${target})`);
      }
    }
    for (const match of text.matchAll(/(?:from |import\()'(\.[^']+)'/g)) {
      const target = roomOf(resolve(dirname(file), match[1] ?? ''));
      if (target !== room && !allowed.includes(target)) {
        broken.push(`${relative(SRC, file)} imports ${match[1]} (${room} → ${target})`);
      }
    }
  }
  return broken;
}

describe('the architecture', () => {
  it('keeps every import inside the rules of docs/architecture.md', () => {
    expect(crossings()).toEqual([]);
  });
});
