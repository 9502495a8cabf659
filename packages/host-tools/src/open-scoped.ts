import { constants, existsSync } from 'node:fs';
import { type FileHandle, open, readlink, stat } from 'node:fs/promises';
import { scopeDenial } from './host-refusal.js';
import type { RefusedPath, RootScope, ScopedPath } from './root-scope.js';

/** An opened file or directory confirmed inside the root after opening. */
export interface ScopedHandle {
  readonly ok: true;
  readonly handle: FileHandle;
  readonly path: ScopedPath;
  /** A path that names exactly the opened file (the fd's own entry on Linux), for `readdir`. */
  readonly fdPath: string;
}

const PROC_FD = existsSync('/proc/self/fd');

/** The real path of an open descriptor, when the platform exposes it. */
async function descriptorPath(handle: FileHandle): Promise<string | undefined> {
  if (!PROC_FD) return undefined;
  return readlink(`/proc/self/fd/${handle.fd}`);
}

/**
 * Resolves `path` inside the scope, opens it without following a final symlink, then checks what
 * was opened: its descriptor must still point inside the root, so a symlink swapped into the path
 * between the check and the open is caught. Refuses (never opens) paths outside the root.
 */
export async function openScoped(
  scope: RootScope,
  path: unknown,
  options: { capability: string; directory?: boolean },
): Promise<ScopedHandle | RefusedPath> {
  const resolved = await scope.resolve(path, options.capability);
  if (!resolved.ok) return resolved;
  const flags =
    constants.O_RDONLY |
    constants.O_NOFOLLOW |
    (options.directory === true ? constants.O_DIRECTORY : 0) |
    (options.directory === true ? 0 : constants.O_NONBLOCK);
  let handle: FileHandle;
  try {
    handle = await open(resolved.real, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return swapped(path, options.capability);
    if (code === 'ENOTDIR') throw new Error(`not a directory: ${resolved.relative}`);
    throw error;
  }
  const opened = await descriptorPath(handle);
  const inside =
    opened === undefined ? await sameFile(handle, resolved.real) : scope.contains(opened);
  if (!inside) {
    await handle.close();
    return swapped(path, options.capability);
  }
  return {
    ok: true,
    handle,
    path: resolved,
    fdPath: opened === undefined ? resolved.real : `/proc/self/fd/${handle.fd}`,
  };
}

async function sameFile(handle: FileHandle, real: string): Promise<boolean> {
  const [opened, named] = await Promise.all([handle.stat(), stat(real)]);
  return opened.dev === named.dev && opened.ino === named.ino;
}

function swapped(path: unknown, capability: string): RefusedPath {
  const shown = String(path);
  return {
    ok: false,
    denial: scopeDenial(
      `${JSON.stringify(shown)} changed into a link that leaves the root while it was opened`,
      shown,
      capability,
    ),
  };
}
