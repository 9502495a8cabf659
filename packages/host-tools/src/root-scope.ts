import { realpathSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ToolDenial } from 'switchyard';
import { InvalidOptionError } from 'switchyard';
import { scopeDenial } from './host-refusal.js';

/** A path confirmed inside the root: its real (symlink-free) absolute path and its root-relative form. */
export interface ScopedPath {
  readonly ok: true;
  readonly real: string;
  /** Relative to the root, `/`-separated; `.` for the root itself. */
  readonly relative: string;
}

/** A path refused before anything touched it. */
export interface RefusedPath {
  readonly ok: false;
  readonly denial: ToolDenial;
}

/** The one place host tools decide whether a model-supplied path may be touched. */
export interface RootScope {
  /** The root's real absolute path. */
  readonly root: string;
  /**
   * Resolves `path` (relative to the root, or absolute inside it) through every symlink and
   * refuses anything that lands outside the root. Throws a plain `Error` (a tool error) when the
   * path does not exist.
   */
  resolve(path: unknown, capability: string): Promise<ScopedPath | RefusedPath>;
  /** True when a real absolute path is the root or below it. */
  contains(real: string): boolean;
}

const MAX_PATH_CHARS = 4096;

/** The first control character (NUL above all) or lone surrogate half, as a reason; else null. */
function oddCharacter(path: string): string | null {
  for (let index = 0; index < path.length; index += 1) {
    const code = path.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return 'a path must not contain NUL or control characters';
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = path.charCodeAt(index + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return 'a path must be well-formed Unicode';
      index += 1;
    } else if (code >= 0xdc00 && code <= 0xdfff) return 'a path must be well-formed Unicode';
  }
  return null;
}

/**
 * Why a path text is refused before resolution (not a string, empty, too long, NUL or other control
 * characters, malformed UTF-16), or null when it may be resolved.
 */
export function pathTextProblem(path: unknown): string | null {
  if (typeof path !== 'string') return 'a path must be a string';
  if (path.length === 0) return 'a path must not be empty';
  if (path.length > MAX_PATH_CHARS) return `a path must be at most ${MAX_PATH_CHARS} characters`;
  return oddCharacter(path);
}

/** True when `candidate` (absolute, normalised) is `root` or below it. */
export function isInsideRoot(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
  return candidate.startsWith(prefix);
}

function toRelative(root: string, real: string): string {
  const path = relative(root, real);
  return path === '' ? '.' : path.split(sep).join('/');
}

/**
 * Scopes every path a host tool touches to `root` (which must exist; it is resolved through its
 * own symlinks once, here). Throws `InvalidOptionError` naming `option` when `root` is not an
 * existing directory path.
 */
export function createRootScope(root: unknown, option = 'root'): RootScope {
  if (typeof root !== 'string' || pathTextProblem(root) !== null) {
    throw new InvalidOptionError(option, `${option} must be a directory path`);
  }
  let real: string;
  try {
    real = realpathSync(resolve(root));
  } catch {
    throw new InvalidOptionError(option, `${option} ${JSON.stringify(root)} does not exist`);
  }
  const contains = (candidate: string): boolean => isInsideRoot(real, candidate);
  return {
    root: real,
    contains,
    async resolve(path, capability) {
      const problem = pathTextProblem(path);
      const shown = typeof path === 'string' ? path : String(path);
      if (problem !== null) return { ok: false, denial: scopeDenial(problem, shown, capability) };
      const text = path as string;
      const lexical = isAbsolute(text) ? resolve(text) : resolve(real, text);
      if (!contains(lexical)) {
        return {
          ok: false,
          denial: scopeDenial(`${JSON.stringify(text)} is outside the root`, text, capability),
        };
      }
      let resolved: string;
      try {
        resolved = await realpath(lexical);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          throw new Error(`no such file or directory: ${toRelative(real, lexical)}`);
        }
        throw error;
      }
      if (!contains(resolved)) {
        return {
          ok: false,
          denial: scopeDenial(
            `${JSON.stringify(text)} resolves (through a symlink) outside the root`,
            text,
            capability,
          ),
        };
      }
      return { ok: true, real: resolved, relative: toRelative(real, resolved) };
    },
  };
}
