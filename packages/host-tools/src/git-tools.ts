import type { AnyTool } from 'switchyard/tools';
import { type GitRepoOptions, gitContext } from './git-context.js';
import { GIT_OPERATIONS, type GitArgs } from './git-operations.js';
import {
  buildHostToolSet,
  type HostToolDefinition,
  type HostToolSetOptions,
} from './host-tool-set.js';
import { runGitOperation } from './run-git-operation.js';

/** Options of `gitTools`. */
export interface GitToolsOptions extends HostToolSetOptions, GitRepoOptions {}

/**
 * One tool per local git operation (group `git`): `git_status`, `git_log`, `git_diff`, `git_show`,
 * `git_branch` (read-only), `git_create_branch`, `git_switch`, `git_add`, `git_commit`
 * (workspace writes), `git_restore`, `git_reset` (destructive). All serialise on the `git` lane;
 * paths and the repository stay inside `repo`. Narrow with `enabledTools` / `disabledTools`.
 * Throws `InvalidOptionError` naming a bad option.
 *
 * @example
 * const tools = gitTools({ repo, enabledTools: ['git_status', 'git_log', 'git_switch'], names: { git_log: 'release_git_log' } });
 */
export function gitTools(options: GitToolsOptions): AnyTool[] {
  const context = gitContext('gitTools', options);
  const definitions: HostToolDefinition[] = GIT_OPERATIONS.map((operation) => ({
    key: operation.key,
    group: 'git',
    build: () => ({
      name: operation.key,
      description: operation.description,
      inputSchema: operation.inputSchema,
      safety: { ...operation.safety, workspaceRoot: context.scope.root },
      exclusiveLane: 'git',
      handler: (args: GitArgs, runtime) =>
        runGitOperation(context, operation, args, runtime.signal),
    }),
  }));
  return buildHostToolSet('gitTools', definitions, options);
}
