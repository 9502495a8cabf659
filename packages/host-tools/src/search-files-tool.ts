import { readdir } from 'node:fs/promises';
import picomatch from 'picomatch';
import { compileLinearRegex, type LinearRegex, quoteLiteral } from 'switchyard/tools';
import { refusedOutput } from './host-refusal.js';
import type { HostToolDefinition } from './host-tool-set.js';
import { openScoped } from './open-scoped.js';
import { looksBinary, readBounded } from './read-bounded.js';
import { type ReadContext, readSafety } from './read-context.js';

interface SearchArgs {
  readonly pattern: string;
  readonly literal?: boolean;
  readonly case_insensitive?: boolean;
  readonly path?: string;
  readonly include_globs?: readonly string[];
  readonly exclude_globs?: readonly string[];
  readonly max_matches?: number;
}

/** One matching line. */
export interface SearchMatch {
  readonly path: string;
  readonly line: number;
  readonly text: string;
}

const MAX_LINE_CHARS = 300;
const MAX_FILES = 20_000;
const GLOB_LIST = { type: 'array', items: { type: 'string', maxLength: 500 }, maxItems: 50 };

const SCHEMA = {
  type: 'object',
  properties: {
    pattern: {
      type: 'string',
      minLength: 1,
      maxLength: 1000,
      description: 'RE2 regex, or text with literal: true.',
    },
    literal: { type: 'boolean', description: 'Match the pattern as plain text (default false).' },
    case_insensitive: { type: 'boolean' },
    path: {
      type: 'string',
      description: 'Directory to search, relative to the root (default ".").',
    },
    include_globs: { ...GLOB_LIST, description: 'Root-relative globs a file must match.' },
    exclude_globs: {
      ...GLOB_LIST,
      description: 'Root-relative globs to skip, added to the defaults.',
    },
    max_matches: { type: 'integer', minimum: 1, maximum: 10_000 },
  },
  required: ['pattern'],
  additionalProperties: false,
} as const;

function globMatcher(globs: readonly string[]): (path: string) => boolean {
  if (globs.length === 0) return () => false;
  return picomatch([...globs], { dot: true });
}

function searchText(
  regex: LinearRegex,
  path: string,
  text: string,
  into: SearchMatch[],
  limit: number,
) {
  const lines = text.split('\n');
  for (let index = 0; index < lines.length && into.length < limit; index += 1) {
    const line = lines[index] as string;
    if (regex.test(line)) into.push({ path, line: index + 1, text: line.slice(0, MAX_LINE_CHARS) });
  }
}

async function searchFiles(context: ReadContext, args: SearchArgs): Promise<unknown> {
  const source = args.literal === true ? quoteLiteral(args.pattern) : args.pattern;
  const regex = compileLinearRegex(source, args.case_insensitive === true ? 'i' : '');
  const excluded = globMatcher([...context.excludeGlobs, ...(args.exclude_globs ?? [])]);
  const included = args.include_globs === undefined ? () => true : globMatcher(args.include_globs);
  const limit = args.max_matches ?? context.searchMaxMatches;
  const matches: SearchMatch[] = [];
  // An explicit stack: a deep tree cannot overflow the call stack.
  const pending: string[] = [args.path ?? '.'];
  let filesSearched = 0;
  let first = true;
  while (pending.length > 0 && matches.length < limit && filesSearched < MAX_FILES) {
    const directory = pending.pop() as string;
    const opened = await openScoped(context.scope, directory, {
      capability: 'filesystem.read',
      directory: true,
    });
    if (!opened.ok) {
      if (first) return refusedOutput(opened.denial);
      continue;
    }
    first = false;
    const base = opened.path.relative;
    let entries: Awaited<ReturnType<typeof readdirTyped>>;
    try {
      entries = await readdirTyped(opened.fdPath);
    } finally {
      await opened.handle.close();
    }
    const files: string[] = [];
    for (const entry of entries) {
      const path = base === '.' ? entry.name : `${base}/${entry.name}`;
      // Symlinks are never followed: whatever they point to is reached by its own path or not at all.
      if (entry.isSymbolicLink() || excluded(path) || excluded(`${path}/`)) continue;
      if (entry.isDirectory()) {
        if (entry.name !== '.git') pending.push(path);
      } else if (entry.isFile() && included(path)) files.push(path);
    }
    pending.sort((left, right) => (left < right ? 1 : -1));
    for (const path of files.sort()) {
      if (matches.length >= limit || filesSearched >= MAX_FILES) break;
      filesSearched += 1;
      const file = await openScoped(context.scope, path, { capability: 'filesystem.read' });
      if (!file.ok) continue;
      try {
        const read = await readBounded(file.handle, 0, context.maxFileBytes, path);
        if (!looksBinary(read.bytes))
          searchText(regex, path, read.bytes.toString('utf8'), matches, limit);
      } finally {
        await file.handle.close();
      }
    }
  }
  return { matches, files_searched: filesSearched, truncated: matches.length >= limit };
}

function readdirTyped(path: string) {
  return readdir(path, { withFileTypes: true });
}

/** `search_files`: lines matching a linear-time regex or a literal under a directory of the root. */
export function searchFilesTool(context: ReadContext): HostToolDefinition {
  return {
    key: 'search_files',
    group: 'read',
    build: () => ({
      name: 'search_files',
      description: `Search text files under the root for a regex (RE2 syntax) or literal; returns matching lines (default at most ${context.searchMaxMatches}). Symlinks and .git are skipped.`,
      inputSchema: SCHEMA,
      safety: readSafety(context.scope),
      handler: (args: SearchArgs) => searchFiles(context, args),
    }),
  };
}
