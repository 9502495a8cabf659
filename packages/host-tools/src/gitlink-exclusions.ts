import type { RootScope } from './root-scope.js';
import { runGit } from './run-git.js';

/**
 * Pathspecs that leave out every nested repository (gitlink) the `pathspecs` cover. `git add`
 * asks a gitlink it stages whether it is modified by running `git status` inside it, under that
 * repository's own configuration, filter drivers included; nothing passed on the command line
 * reaches drivers whose names only that configuration knows. Throws a tool error when the index
 * cannot be listed.
 */
export async function gitlinkExclusions(options: {
  readonly scope: RootScope;
  readonly toplevel: string;
  readonly overrides: readonly string[];
  readonly pathspecs: readonly string[];
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}): Promise<string[]> {
  const listed = await runGit({
    scope: options.scope,
    cwd: options.toplevel,
    args: ['ls-files', '--stage', '-z', '--', ...options.pathspecs],
    overrides: options.overrides,
    timeoutMs: options.timeoutMs,
    maxBytes: 256 * 1024 * 1024,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (listed.exitCode !== 0 || listed.truncated) {
    throw new Error(`git could not list the index: ${listed.stderr.trim()}`);
  }
  // `<mode> <object> <stage>\t<path>`, NUL-terminated; 160000 is a gitlink.
  return listed.stdout
    .split('\0')
    .filter((entry) => entry.startsWith('160000 '))
    .map((entry) => `:(exclude,literal)${entry.slice(entry.indexOf('\t') + 1)}`);
}
