import { realpath } from 'node:fs/promises';
import { terminalDenial } from 'switchyard';
import { scopeDenial } from './host-refusal.js';
import type { RefusedPath, RootScope } from './root-scope.js';
import { hardenRepository, runGit } from './run-git.js';

/** A git working tree confirmed inside the root, with the overrides its configuration needs. */
export interface ScopedRepo {
  readonly ok: true;
  /** Real path of the working tree's top level. */
  readonly toplevel: string;
  /** `-c` overrides neutralising the programs its configuration names (`hardenRepository`). */
  readonly overrides: readonly string[];
}

/** How to probe: the git directory may lie outside the root only with `allowExternalGitDir`. */
export interface RepoProbeOptions {
  readonly allowExternalGitDir: boolean;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** The capability a refusal names. Default `git.inspect`. */
  readonly capability?: string;
}

/**
 * The git working tree holding the real directory `cwd` (inside the root), checked: its top level
 * (and, unless `allowExternalGitDir`, its git directory) must lie inside the root, since a `.git`
 * file pointing elsewhere would otherwise expose another repository, and its configuration must
 * pass `hardenRepository`. Undefined when `cwd` is in no repository.
 */
export async function findScopedRepo(
  scope: RootScope,
  cwd: string,
  shown: string,
  options: RepoProbeOptions,
): Promise<ScopedRepo | RefusedPath | undefined> {
  const capability = options.capability ?? 'git.inspect';
  const signal = options.signal === undefined ? {} : { signal: options.signal };
  const probe = await runGit({
    scope,
    cwd,
    args: ['rev-parse', '--show-toplevel', '--absolute-git-dir'],
    timeoutMs: options.timeoutMs,
    maxBytes: 64 * 1024,
    ...signal,
  });
  if (probe.exitCode !== 0) return undefined;
  const [toplevel = '', gitDir = ''] = probe.stdout.trim().split('\n');
  const [realTop, realGitDir] = await Promise.all([realpath(toplevel), realpath(gitDir)]);
  const refuse = (reason: string): RefusedPath => ({
    ok: false,
    denial: scopeDenial(reason, shown, capability),
  });
  if (!scope.contains(realTop)) {
    return refuse(`the repository of ${JSON.stringify(shown)} is outside the root`);
  }
  if (!options.allowExternalGitDir && !scope.contains(realGitDir)) {
    return refuse(`the git directory of ${JSON.stringify(shown)} is outside the root`);
  }
  const verdict = await hardenRepository({
    scope,
    toplevel: realTop,
    timeoutMs: options.timeoutMs,
    ...signal,
  });
  if (!verdict.ok) {
    return {
      ok: false,
      denial: terminalDenial(
        'host_rejected',
        `git will not run in the repository of ${JSON.stringify(shown)}: ${verdict.reason}, outside the root`,
        { capability, deniedPaths: [verdict.path] },
      ),
    };
  }
  return { ok: true, toplevel: realTop, overrides: verdict.overrides };
}

/**
 * Resolves the model-supplied `path` through the scope and finds its repository
 * (`findScopedRepo`). Throws a tool error when `path` is in no repository.
 */
export async function scopedRepo(
  scope: RootScope,
  path: unknown,
  options: RepoProbeOptions,
): Promise<ScopedRepo | RefusedPath> {
  const resolved = await scope.resolve(path, options.capability ?? 'git.inspect');
  if (!resolved.ok) return resolved;
  const repo = await findScopedRepo(scope, resolved.real, String(path), options);
  if (repo === undefined) {
    throw new Error(`not a git repository (inside the root): ${resolved.relative}`);
  }
  return repo;
}
