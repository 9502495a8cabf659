import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The file `program` would start as, found the way `execvp` finds it: a name holding `/` from
 * `cwd`, any other along `path` (the child's `PATH`). Undefined when nothing executable is there.
 */
export function findProgram(
  program: string,
  options: { readonly cwd: string; readonly path: string | undefined },
): string | undefined {
  if (program === '') return undefined;
  if (program.includes('/')) {
    const file = resolve(options.cwd, program);
    return executable(file) ? file : undefined;
  }
  for (const directory of (options.path ?? '').split(delimiter)) {
    const file = join(resolve(options.cwd, directory === '' ? '.' : directory), program);
    if (executable(file)) return file;
  }
  return undefined;
}
