import { checkBoolean } from 'switchyard/extension';
import type { AnyTool } from 'switchyard/tools';
import { defaultSchemaValidator, isPlainObject } from 'switchyard/tools';
import { type GitRepoOptions, gitContext } from './git-context.js';
import { GIT_OPERATIONS, type GitArgs, type GitOperation } from './git-operations.js';
import { buildHostToolSet, type HostToolSetOptions } from './host-tool-set.js';
import { runGitOperation } from './run-git-operation.js';

/** Options of `gitToolbox`. */
export interface GitToolboxOptions extends HostToolSetOptions, GitRepoOptions {
  /** Offer operations that change the repository (add, commit, switch, restore, reset). Default false. */
  readonly includeMutations?: boolean;
}

const STOP_WORDS = new Set([
  'the',
  'to',
  'in',
  'of',
  'on',
  'an',
  'and',
  'or',
  'for',
  'with',
  'what',
  'my',
  'is',
  'it',
  'at',
  'as',
  'be',
  'by',
]);

/** Lower-case words without stop words, a plural `s` dropped so `commits` meets `commit`. */
const words = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1 && !STOP_WORDS.has(word))
    .map((word) =>
      word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word,
    );

/**
 * Scores an operation for a query, deterministically: a query word in the name counts 3, in the
 * keywords 2, in the description 1; a word of 3+ letters that only starts a word counts 0.5.
 */
export function scoreGitOperation(operation: GitOperation, query: string): number {
  const fields: [string[], number][] = [
    [words(operation.key), 3],
    [words(operation.keywords), 2],
    [words(operation.description), 1],
  ];
  let score = 0;
  for (const word of new Set(words(query))) {
    let best = 0;
    for (const [field, weight] of fields) {
      if (field.includes(word)) best = Math.max(best, weight);
      else if (word.length >= 3 && field.some((candidate) => candidate.startsWith(word)))
        best = Math.max(best, 0.5);
    }
    score += best;
  }
  return score;
}

/**
 * Two tools for models that struggle with many schemas (group `git`): `find_git_tool` ranks a
 * curated catalog of local git operations for a query (a lexical scorer), and `run_git_tool` runs
 * one by name with its arguments (checked against its schema). Read-only unless
 * `includeMutations`. Throws `InvalidOptionError` naming a bad option.
 *
 * @example
 * const tools = gitToolbox({ repo, includeMutations: true });
 */
export function gitToolbox(options: GitToolboxOptions): AnyTool[] {
  const context = gitContext('gitToolbox', options);
  const mutations =
    options.includeMutations === undefined
      ? false
      : checkBoolean('gitToolbox', 'includeMutations', options.includeMutations);
  const catalog = new Map(
    GIT_OPERATIONS.filter((operation) => mutations || !operation.mutates).map((operation) => [
      operation.key,
      operation,
    ]),
  );
  const find = {
    key: 'find_git_tool',
    group: 'git',
    build: (nameOf: (key: string) => string) => ({
      name: 'find_git_tool',
      description: `Find the git operation for a task (e.g. "what changed", "undo staged file"); returns names, descriptions and argument schemas to use with ${nameOf('run_git_tool')}.`,
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 500 },
          limit: { type: 'integer', minimum: 1, maximum: 10 },
        },
        required: ['query'],
        additionalProperties: false,
      },
      safety: { sideEffectLevel: 'none' as const },
      handler: ({ query, limit = 3 }: { query: string; limit?: number }) => {
        const ranked = [...catalog.values()]
          .map((operation, index) => ({
            operation,
            index,
            score: scoreGitOperation(operation, query),
          }))
          .filter((entry) => entry.score > 0)
          .sort((left, right) => right.score - left.score || left.index - right.index)
          .slice(0, limit);
        return {
          tools: ranked.map(({ operation, score }) => ({
            name: operation.key,
            description: operation.description,
            mutates: operation.mutates,
            input_schema: operation.inputSchema,
            score,
          })),
        };
      },
    }),
  };
  const run = {
    key: 'run_git_tool',
    group: 'git',
    build: (nameOf: (key: string) => string) => ({
      name: 'run_git_tool',
      description: `Run a git operation found with ${nameOf('find_git_tool')}: its name and its arguments.`,
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', enum: [...catalog.keys()] },
          arguments: { type: 'object' },
        },
        required: ['name'],
        additionalProperties: false,
      },
      safety: mutations
        ? {
            sideEffectLevel: 'workspace_write' as const,
            filesystem: true,
            destructive: true,
            workspaceRoot: context.scope.root,
          }
        : {
            sideEffectLevel: 'read_only' as const,
            readOnly: true,
            filesystem: true,
            workspaceRoot: context.scope.root,
          },
      exclusiveLane: 'git',
      handler: (args: { name: string; arguments?: GitArgs }, runtime: { signal: AbortSignal }) => {
        const operation = catalog.get(args.name);
        if (operation === undefined)
          throw new Error(`unknown git operation ${JSON.stringify(args.name)}`);
        const given = args.arguments ?? {};
        if (!isPlainObject(given)) throw new Error('arguments must be an object');
        const check = defaultSchemaValidator.check(operation.key, operation.inputSchema, given);
        if (!check.valid)
          throw new Error(`invalid arguments for ${operation.key}: ${check.repair}`);
        return runGitOperation(context, operation, given, runtime.signal);
      },
    }),
  };
  return buildHostToolSet('gitToolbox', [find, run], options);
}
