import { basename, relative } from 'node:path';
import type { ToolDenial } from 'switchyard';
import type { CommandContext } from './command-context.js';
import type { CommandRequest } from './command-policy.js';
import { GIT_HARDENING, gitVariables } from './run-git.js';
import { findScopedRepo } from './scoped-repo.js';

/** A command as it will start: argv and environment. */
export interface PreparedCommand {
  readonly request: CommandRequest;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * Gives an argv whose program is `git` the git tools' hardening (`hardenGit`): the fixed `-c`
 * overrides and the repository's own (`findScopedRepo`) right after `git`, and the variables that
 * leave out user and system configuration and stop discovery at the root. A repository the git
 * tools would refuse is refused. Shell lines, and programs that start git themselves, are left as
 * they are.
 */
export async function prepareCommand(
  context: CommandContext,
  request: CommandRequest,
  signal: AbortSignal,
): Promise<PreparedCommand | { readonly denial: ToolDenial }> {
  const [program = '', ...args] = request.mode === 'argv' ? request.argv : [];
  if (request.mode !== 'argv' || !context.hardenGit || basename(program) !== 'git') {
    return { request, env: context.env };
  }
  const repo = await findScopedRepo(
    context.scope,
    request.cwd,
    relative(context.scope.root, request.cwd) || '.',
    {
      allowExternalGitDir: false,
      timeoutMs: context.timeoutMs,
      signal,
      capability: 'process.exec',
    },
  );
  if (repo !== undefined && !repo.ok) return { denial: repo.denial };
  const overrides = repo === undefined ? [] : repo.overrides;
  return {
    request: { ...request, argv: [program, ...GIT_HARDENING, ...overrides, ...args] },
    env: { ...context.env, ...gitVariables(context.scope) },
  };
}
