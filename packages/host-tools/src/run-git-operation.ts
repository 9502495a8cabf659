import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { GitArgs, GitOperation } from './git-operations.js';
import { gitlinkExclusions } from './gitlink-exclusions.js';
import { refusedOutput, scopeDenial } from './host-refusal.js';
import { pathTextProblem, type RootScope } from './root-scope.js';
import { runGit } from './run-git.js';
import { scopedRepo } from './scoped-repo.js';

/** What the git tools share. */
export interface GitContext {
  /** The repository directory: every path and the repository itself must lie inside it. */
  readonly scope: RootScope;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  /** Committer and author for `git_commit` when the repository configures none. */
  readonly identity: { readonly name: string; readonly email: string } | undefined;
}

/** A pathspec for `path`: an existing path through the scope, a missing one (a deleted file) by its parent. */
async function pathspec(
  scope: RootScope,
  path: unknown,
  capability: string,
): Promise<string | { refused: ReturnType<typeof scopeDenial> }> {
  const problem = pathTextProblem(path);
  const shown = String(path);
  if (problem !== null) return { refused: scopeDenial(problem, shown, capability) };
  try {
    const resolved = await scope.resolve(path, capability);
    if (!resolved.ok) return { refused: resolved.denial };
    return `:(literal)${resolved.real}`;
  } catch {
    const lexical = isAbsolute(shown) ? resolve(shown) : resolve(scope.root, shown);
    let parent: string;
    try {
      parent = await realpath(dirname(lexical));
    } catch {
      throw new Error(`no such file or directory: ${shown}`);
    }
    if (!scope.contains(lexical) || !scope.contains(parent)) {
      return {
        refused: scopeDenial(
          `${JSON.stringify(shown)} is outside the repository`,
          shown,
          capability,
        ),
      };
    }
    return `:(literal)${join(parent, basename(lexical))}`;
  }
}

/**
 * Runs one catalog operation in the scoped repository: paths are checked and passed as literal
 * pathspecs after `--`; a failing git is a tool error carrying its stderr.
 */
export async function runGitOperation(
  context: GitContext,
  operation: GitOperation,
  args: GitArgs,
  signal: AbortSignal,
): Promise<unknown> {
  const capability = operation.mutates ? 'git.write' : 'git.inspect';
  const repo = await scopedRepo(context.scope, '.', {
    allowExternalGitDir: false,
    timeoutMs: context.timeoutMs,
    signal,
    capability,
  });
  if (!repo.ok) return refusedOutput(repo.denial);
  const pathspecs: string[] = [];
  for (const name of operation.pathArgs) {
    const value = Object.hasOwn(args, name) ? args[name] : undefined;
    for (const path of Array.isArray(value) ? value : []) {
      const spec = await pathspec(context.scope, path, capability);
      if (typeof spec !== 'string') return refusedOutput(spec.refused);
      pathspecs.push(spec);
    }
  }
  const identity =
    context.identity === undefined
      ? []
      : ['-c', `user.name=${context.identity.name}`, '-c', `user.email=${context.identity.email}`];
  const exclusions = operation.skipsNestedRepositories
    ? await gitlinkExclusions({
        scope: context.scope,
        toplevel: repo.toplevel,
        overrides: repo.overrides,
        pathspecs,
        timeoutMs: context.timeoutMs,
        signal,
      })
    : [];
  const tail = operation.pathArgs.length > 0 ? ['--', ...pathspecs, ...exclusions] : [];
  const output = await runGit({
    scope: context.scope,
    cwd: repo.toplevel,
    args: [...identity, ...operation.argv(args, pathspecs), ...tail],
    overrides: repo.overrides,
    timeoutMs: context.timeoutMs,
    maxBytes: context.maxOutputBytes,
    signal,
  });
  if (output.timedOut) throw new Error(`${operation.key} timed out after ${context.timeoutMs} ms`);
  if (output.exitCode !== 0) {
    throw new Error(
      `${operation.key} failed (exit ${output.exitCode}): ${(output.stderr || output.stdout).trim().slice(0, 2000)}`,
    );
  }
  return {
    operation: operation.key,
    output: output.stdout,
    ...(output.stderr === '' ? {} : { messages: output.stderr }),
    truncated: output.truncated,
  };
}
