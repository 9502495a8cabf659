import { InvalidOptionError } from 'switchyard';
import { checkPositive, checkString, optionsObject } from 'switchyard/extension';
import { createRootScope } from './root-scope.js';
import type { GitContext } from './run-git-operation.js';

/** Options every git tool set takes besides the common ones. */
export interface GitRepoOptions {
  /** The repository directory; nothing outside it is touched (must exist). */
  readonly repo: string;
  /** Longest one git run may take. Default 30 000 ms. */
  readonly timeoutMs?: number;
  /** Bytes of git output returned. Default 65 536. */
  readonly maxOutputBytes?: number;
  /** Author and committer for commits when the repository configures none. */
  readonly identity?: { readonly name: string; readonly email: string };
}

/** The checked context of a git tool set. Throws `InvalidOptionError` naming a bad option. */
export function gitContext(factory: string, options: GitRepoOptions): GitContext {
  const settings = optionsObject(factory, options);
  const number = (option: 'timeoutMs' | 'maxOutputBytes', fallback: number) =>
    settings[option] === undefined
      ? fallback
      : checkPositive(factory, option, settings[option], { integer: true });
  const identity = settings.identity;
  if (identity !== undefined && (typeof identity !== 'object' || identity === null)) {
    throw new InvalidOptionError('identity', `${factory}: identity must be { name, email }`);
  }
  return {
    scope: createRootScope(settings.repo, 'repo'),
    timeoutMs: number('timeoutMs', 30_000),
    maxOutputBytes: number('maxOutputBytes', 65_536),
    identity:
      identity === undefined
        ? undefined
        : {
            name: checkString(factory, 'identity.name', identity.name, { nonEmpty: true }),
            email: checkString(factory, 'identity.email', identity.email, { nonEmpty: true }),
          },
  };
}
