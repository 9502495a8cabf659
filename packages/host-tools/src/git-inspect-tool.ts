import { relative } from 'node:path';
import { refusedOutput } from './host-refusal.js';
import type { HostToolDefinition } from './host-tool-set.js';
import { type ReadContext, readSafety } from './read-context.js';
import { runGit } from './run-git.js';
import { scopedRepo } from './scoped-repo.js';

type Operation = 'status' | 'log' | 'diff' | 'show' | 'blame';

interface InspectArgs {
  readonly operation: Operation;
  readonly repo?: string;
  readonly path?: string;
  readonly revision?: string;
  readonly staged?: boolean;
  readonly max_count?: number;
}

// A revision never starts with `-`: it could not then be read as an option (`--output=…`).
const REVISION = '^[A-Za-z0-9_./~^@{}][A-Za-z0-9_./~^@{}:-]*$';

const SCHEMA = {
  type: 'object',
  properties: {
    operation: { type: 'string', enum: ['status', 'log', 'diff', 'show', 'blame'] },
    repo: {
      type: 'string',
      description: 'Repository directory relative to the root (default ".").',
    },
    path: { type: 'string', description: 'Limit to this path (required for blame).' },
    revision: {
      type: 'string',
      pattern: REVISION,
      maxLength: 200,
      description: 'Commit, branch or range.',
    },
    staged: { type: 'boolean', description: 'diff: compare the index instead of the work tree.' },
    max_count: {
      type: 'integer',
      minimum: 1,
      maximum: 500,
      description: 'log: commits (default 20).',
    },
  },
  required: ['operation'],
  additionalProperties: false,
} as const;

function argvFor(args: InspectArgs, pathspec: readonly string[]): string[] {
  const revision = args.revision === undefined ? [] : [args.revision];
  switch (args.operation) {
    case 'status':
      return ['status', '--porcelain=v1', '--branch', '--ignore-submodules=all', '--', ...pathspec];
    case 'log':
      return [
        'log',
        `--max-count=${args.max_count ?? 20}`,
        '--date=iso-strict',
        '--format=%H%x09%an%x09%ad%x09%s',
        ...revision,
        '--',
        ...pathspec,
      ];
    case 'diff':
      return [
        'diff',
        '--no-ext-diff',
        '--no-textconv',
        '--ignore-submodules=all',
        ...(args.staged === true ? ['--cached'] : []),
        ...revision,
        '--',
        ...pathspec,
      ];
    case 'show':
      return [
        'show',
        '--no-ext-diff',
        '--no-textconv',
        '--format=fuller',
        ...(revision.length > 0 ? revision : ['HEAD']),
        '--',
        ...pathspec,
      ];
    case 'blame':
      return ['blame', '--no-textconv', '--date=short', ...revision, '--', ...pathspec];
  }
}

async function inspect(
  context: ReadContext,
  args: InspectArgs,
  signal: AbortSignal,
): Promise<unknown> {
  const repo = await scopedRepo(context.scope, args.repo ?? '.', {
    allowExternalGitDir: false,
    timeoutMs: context.gitTimeoutMs,
    signal,
  });
  if (!repo.ok) return refusedOutput(repo.denial);
  const pathspec: string[] = [];
  if (args.path !== undefined) {
    const resolved = await context.scope.resolve(args.path, 'git.inspect');
    if (!resolved.ok) return refusedOutput(resolved.denial);
    // `:(literal)` keeps git from reading the path as a glob or magic pathspec; blame takes a
    // plain path (after `--`, so never an option).
    pathspec.push(
      args.operation === 'blame'
        ? relative(repo.toplevel, resolved.real)
        : `:(literal)${resolved.real}`,
    );
  } else if (args.operation === 'blame') {
    throw new Error('blame needs a path');
  }
  const output = await runGit({
    scope: context.scope,
    cwd: repo.toplevel,
    args: argvFor(args, pathspec),
    overrides: repo.overrides,
    timeoutMs: context.gitTimeoutMs,
    maxBytes: context.maxReadBytes,
    signal,
  });
  if (output.timedOut)
    throw new Error(`git ${args.operation} timed out after ${context.gitTimeoutMs} ms`);
  if (output.exitCode !== 0)
    throw new Error(`git ${args.operation} failed: ${output.stderr.trim()}`);
  return { operation: args.operation, output: output.stdout, truncated: output.truncated };
}

/** `git_inspect`: read-only git (status, log, diff, show, blame) of a repository inside the root. */
export function gitInspectTool(context: ReadContext): HostToolDefinition {
  return {
    key: 'git_inspect',
    group: 'read',
    build: () => ({
      name: 'git_inspect',
      description:
        'Inspect a git repository under the root, read-only: status, log, diff, show or blame.',
      inputSchema: SCHEMA,
      safety: readSafety(context.scope),
      handler: (args: InspectArgs, runtime) => inspect(context, args, runtime.signal),
    }),
  };
}
