import { realpath } from 'node:fs/promises';
import { scopeDenial } from './host-refusal.js';
import type { RefusedPath, RootScope } from './root-scope.js';
import { runGit } from './run-git.js';

/** A git working tree confirmed inside the root. */
export interface ScopedRepo {
  readonly ok: true;
  /** Real path of the working tree's top level. */
  readonly toplevel: string;
}

/**
 * Finds the git working tree holding `path` and refuses it unless its top level (and, unless
 * `allowExternalGitDir`, its git directory) lies inside the root: a `.git` file pointing elsewhere
 * would otherwise expose another repository. Throws a tool error when `path` is in no repository.
 */
export async function scopedRepo(
  scope: RootScope,
  path: unknown,
  options: { allowExternalGitDir: boolean; timeoutMs: number; signal?: AbortSignal },
): Promise<ScopedRepo | RefusedPath> {
  const resolved = await scope.resolve(path, 'git.inspect');
  if (!resolved.ok) return resolved;
  const probe = await runGit({
    scope,
    cwd: resolved.real,
    args: ['rev-parse', '--show-toplevel', '--absolute-git-dir'],
    timeoutMs: options.timeoutMs,
    maxBytes: 64 * 1024,
    neutraliseFilters: false,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (probe.exitCode !== 0) {
    throw new Error(`not a git repository (inside the root): ${resolved.relative}`);
  }
  const [toplevel = '', gitDir = ''] = probe.stdout.trim().split('\n');
  const [realTop, realGitDir] = await Promise.all([realpath(toplevel), realpath(gitDir)]);
  const shown = String(path);
  if (!scope.contains(realTop)) {
    return {
      ok: false,
      denial: scopeDenial(
        `the repository of ${JSON.stringify(shown)} is outside the root`,
        shown,
        'git.inspect',
      ),
    };
  }
  if (!options.allowExternalGitDir && !scope.contains(realGitDir)) {
    return {
      ok: false,
      denial: scopeDenial(
        `the git directory of ${JSON.stringify(shown)} is outside the root`,
        shown,
        'git.inspect',
      ),
    };
  }
  return { ok: true, toplevel: realTop };
}
