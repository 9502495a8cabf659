import type { RootScope } from './root-scope.js';

/** What the read tools share: the root and the limits of one call. */
export interface ReadContext {
  readonly scope: RootScope;
  /** Most content bytes one read returns. */
  readonly maxReadBytes: number;
  /** Largest prefix of a file read to count lines, search or outline it. */
  readonly maxFileBytes: number;
  /** `search_files`'s `max_matches` when the call leaves it out. */
  readonly searchMaxMatches: number;
  /** Root-relative globs `search_files` always skips. */
  readonly excludeGlobs: readonly string[];
  /** Longest a `git_inspect` call may run. */
  readonly gitTimeoutMs: number;
}

/** The read tools' safety: read-only, filesystem, confined to the root. */
export function readSafety(scope: RootScope) {
  return {
    sideEffectLevel: 'read_only',
    readOnly: true,
    filesystem: true,
    workspaceRoot: scope.root,
  } as const;
}
