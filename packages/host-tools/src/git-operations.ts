import type { JsonSchema, ToolSafety } from 'switchyard';

/** Arguments of a git operation as the model sends them. */
export type GitArgs = Readonly<Record<string, unknown>>;

/** One local git operation: its schema, its truthful safety, and how its argv is built. */
export interface GitOperation {
  readonly key: string;
  readonly description: string;
  /** Extra words `find_git_tool` matches on. */
  readonly keywords: string;
  readonly mutates: boolean;
  readonly safety: ToolSafety;
  readonly inputSchema: JsonSchema;
  /** Argument names holding root-relative paths (checked by the scope, passed after `--`). */
  readonly pathArgs: readonly string[];
  /** Leave nested repositories (gitlinks) out of the pathspecs (`gitlinkExclusions`). */
  readonly skipsNestedRepositories?: boolean;
  /** The git argv before `--`; `paths` are the checked pathspecs. */
  argv(args: GitArgs, paths: readonly string[]): string[];
}

const READ: ToolSafety = { sideEffectLevel: 'read_only', readOnly: true, filesystem: true };
const WRITE: ToolSafety = {
  sideEffectLevel: 'workspace_write',
  filesystem: true,
  destructive: false,
};
const DESTROY: ToolSafety = {
  sideEffectLevel: 'workspace_write',
  filesystem: true,
  destructive: true,
};
// Never starts with `-`, so a value cannot be read as an option.
const REVISION = {
  type: 'string',
  pattern: '^[A-Za-z0-9_./~^@{}][A-Za-z0-9_./~^@{}:-]*$',
  maxLength: 200,
};
const BRANCH = { type: 'string', pattern: '^[A-Za-z0-9_][A-Za-z0-9._/-]*$', maxLength: 200 };
const PATHS = { type: 'array', items: { type: 'string' }, maxItems: 200 };

function schema(properties: Record<string, unknown>, required: string[] = []): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false } as JsonSchema;
}

const text = (value: unknown): string => String(value);
const optional = (value: unknown): string[] => (value === undefined ? [] : [String(value)]);

/** The curated catalog of local git operations behind `gitTools` and `gitToolbox`. */
export const GIT_OPERATIONS: readonly GitOperation[] = [
  {
    key: 'git_status',
    description: 'Show the working tree status: branch, staged, modified and untracked files.',
    keywords: 'changes modified untracked staged dirty clean working tree state',
    mutates: false,
    safety: READ,
    inputSchema: schema({ paths: PATHS }),
    pathArgs: ['paths'],
    argv: () => ['status', '--porcelain=v1', '--branch', '--ignore-submodules=all'],
  },
  {
    key: 'git_log',
    description: 'List commits (hash, author, date, subject), newest first.',
    keywords: 'history commits recent changes author who when',
    mutates: false,
    safety: READ,
    inputSchema: schema({
      revision: REVISION,
      paths: PATHS,
      max_count: { type: 'integer', minimum: 1, maximum: 500 },
    }),
    pathArgs: ['paths'],
    argv: (args) => [
      'log',
      `--max-count=${args.max_count ?? 20}`,
      '--date=iso-strict',
      '--format=%H%x09%an%x09%ad%x09%s',
      ...optional(args.revision),
    ],
  },
  {
    key: 'git_diff',
    description:
      'Show changes as a unified diff: work tree vs index, index vs HEAD (staged), or against a revision.',
    keywords: 'difference patch changes compare staged unstaged',
    mutates: false,
    safety: READ,
    inputSchema: schema({
      revision: REVISION,
      staged: { type: 'boolean' },
      paths: PATHS,
      stat: { type: 'boolean' },
    }),
    pathArgs: ['paths'],
    argv: (args) => [
      'diff',
      '--no-ext-diff',
      '--no-textconv',
      '--ignore-submodules=all',
      ...(args.staged === true ? ['--cached'] : []),
      ...(args.stat === true ? ['--stat'] : []),
      ...optional(args.revision),
    ],
  },
  {
    key: 'git_show',
    description: 'Show one commit (message and diff), or a file as of a revision with paths.',
    keywords: 'commit details patch message inspect revision',
    mutates: false,
    safety: READ,
    inputSchema: schema({ revision: REVISION, paths: PATHS }),
    pathArgs: ['paths'],
    argv: (args) => [
      'show',
      '--no-ext-diff',
      '--no-textconv',
      '--format=fuller',
      args.revision === undefined ? 'HEAD' : text(args.revision),
    ],
  },
  {
    key: 'git_branch',
    description: 'List local branches, marking the current one.',
    keywords: 'branches list current which branch',
    mutates: false,
    safety: READ,
    inputSchema: schema({}),
    pathArgs: [],
    argv: () => [
      'branch',
      '--list',
      '--format=%(HEAD) %(refname:short) %(objectname:short) %(subject)',
    ],
  },
  {
    key: 'git_create_branch',
    description: 'Create a branch at HEAD or at a start revision, without switching to it.',
    keywords: 'new branch create start feature',
    mutates: true,
    safety: WRITE,
    inputSchema: schema({ name: BRANCH, start: REVISION }, ['name']),
    pathArgs: [],
    argv: (args) => ['branch', text(args.name), ...optional(args.start)],
  },
  {
    key: 'git_switch',
    description:
      'Switch to a branch (create: true makes it first). Refuses when local changes would be lost.',
    keywords: 'checkout change branch move to go to',
    mutates: true,
    safety: WRITE,
    inputSchema: schema({ branch: BRANCH, create: { type: 'boolean' } }, ['branch']),
    pathArgs: [],
    argv: (args) => ['switch', ...(args.create === true ? ['-c'] : []), text(args.branch)],
  },
  {
    key: 'git_add',
    description:
      'Stage files for the next commit (nested repositories are left out: stage their commits with git itself).',
    keywords: 'stage index track include',
    mutates: true,
    safety: { ...WRITE, idempotent: true },
    inputSchema: schema({ paths: { ...PATHS, minItems: 1 } }, ['paths']),
    pathArgs: ['paths'],
    skipsNestedRepositories: true,
    argv: () => ['add'],
  },
  {
    key: 'git_commit',
    description: 'Record the staged changes as a commit with a message.',
    keywords: 'save record commit message snapshot',
    mutates: true,
    safety: WRITE,
    inputSchema: schema({ message: { type: 'string', minLength: 1, maxLength: 10_000 } }, [
      'message',
    ]),
    pathArgs: [],
    argv: (args) => ['commit', '--no-verify', '-m', text(args.message)],
  },
  {
    key: 'git_restore',
    description:
      'Discard work-tree changes to files (or unstage them with staged: true). Discarded changes are lost.',
    keywords: 'discard revert undo unstage reset file changes',
    mutates: true,
    safety: DESTROY,
    inputSchema: schema({ paths: { ...PATHS, minItems: 1 }, staged: { type: 'boolean' } }, [
      'paths',
    ]),
    pathArgs: ['paths'],
    argv: (args) => ['restore', ...(args.staged === true ? ['--staged'] : [])],
  },
  {
    key: 'git_reset',
    description:
      'Move the current branch to a revision (mode soft, mixed or hard; hard discards work-tree changes).',
    keywords: 'reset undo commit move head hard soft',
    mutates: true,
    safety: DESTROY,
    inputSchema: schema(
      { revision: REVISION, mode: { type: 'string', enum: ['soft', 'mixed', 'hard'] } },
      ['revision'],
    ),
    pathArgs: [],
    argv: (args) => ['reset', `--${args.mode ?? 'mixed'}`, text(args.revision)],
  },
];
