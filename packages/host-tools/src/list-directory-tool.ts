import { readdir } from 'node:fs/promises';
import { refusedOutput } from './host-refusal.js';
import type { HostToolDefinition } from './host-tool-set.js';
import { openScoped } from './open-scoped.js';
import { type ReadContext, readSafety } from './read-context.js';

interface ListArgs {
  readonly path?: string;
  readonly max_entries?: number;
  readonly include_hidden?: boolean;
}

/** One entry of a directory listing. */
export interface DirectoryEntry {
  readonly name: string;
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
}

const SCHEMA = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'Directory relative to the root (default ".").' },
    max_entries: { type: 'integer', minimum: 1, maximum: 5000, description: 'Default 500.' },
    include_hidden: { type: 'boolean', description: 'List dot-files too (default false).' },
  },
  additionalProperties: false,
} as const;

async function listDirectory(context: ReadContext, args: ListArgs): Promise<unknown> {
  const opened = await openScoped(context.scope, args.path ?? '.', {
    capability: 'filesystem.read',
    directory: true,
  });
  if (!opened.ok) return refusedOutput(opened.denial);
  try {
    // Listing through the descriptor lists exactly the directory that passed the check.
    const dirents = await readdir(opened.fdPath, { withFileTypes: true });
    const entries: DirectoryEntry[] = dirents
      .filter((dirent) => args.include_hidden === true || !dirent.name.startsWith('.'))
      .map((dirent) => ({
        name: dirent.name,
        type: dirent.isSymbolicLink()
          ? 'symlink'
          : dirent.isDirectory()
            ? 'directory'
            : dirent.isFile()
              ? 'file'
              : 'other',
      }));
    entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    const limit = args.max_entries ?? 500;
    return {
      path: opened.path.relative,
      entries: entries.slice(0, limit),
      total: entries.length,
      truncated: entries.length > limit,
    };
  } finally {
    await opened.handle.close();
  }
}

/** `list_directory`: the sorted entries of a directory under the root (hidden ones on request). */
export function listDirectoryTool(context: ReadContext): HostToolDefinition {
  return {
    key: 'list_directory',
    group: 'read',
    build: () => ({
      name: 'list_directory',
      description: 'List the entries of a directory under the root, with their types.',
      inputSchema: SCHEMA,
      safety: readSafety(context.scope),
      handler: (args: ListArgs) => listDirectory(context, args),
    }),
  };
}
