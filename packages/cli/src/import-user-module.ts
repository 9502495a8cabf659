import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InputError } from './errors.js';

/**
 * Node ≥ 22.18 strips TypeScript's types itself; syntax that needs transforming instead (enums,
 * namespaces, parameter properties) fails with this code.
 */
const NEEDS_TRANSFORM = 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX';

/**
 * Imports a user's module (`--tools`, `--stack`, `--model-module`, `mcp serve <module>`) by path,
 * relative to `cwd`. `.ts` and `.mts` modules load natively (Node strips their types); a module
 * using syntax Node cannot strip needs `NODE_OPTIONS=--experimental-transform-types` or
 * `NODE_OPTIONS='--import tsx'`, which the error says.
 *
 * @throws InputError when the file is missing, or the module throws or cannot be parsed while it
 *   loads.
 */
export async function importUserModule(
  path: string,
  option: string,
  cwd: string = process.cwd(),
): Promise<Record<string, unknown>> {
  const file = resolve(cwd, path);
  if (!existsSync(file)) throw new InputError(`${option}: no such module ${file}`);
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    const message = (error as Error).message;
    const hint =
      (error as { code?: unknown }).code === NEEDS_TRANSFORM
        ? '; Node strips TypeScript types but does not transform enums, namespaces or parameter properties: run with NODE_OPTIONS=--experimental-transform-types, or NODE_OPTIONS="--import tsx" with tsx installed, or compile the module to .js'
        : '';
    throw new InputError(`${option}: cannot load ${file}: ${message}${hint}`, { cause: error });
  }
}

/** The first of `names` the module exports (own properties only), or undefined. */
export function firstExport(
  module: Record<string, unknown>,
  names: readonly string[],
): { name: string; value: unknown } | undefined {
  for (const name of names) {
    if (Object.hasOwn(module, name) && module[name] !== undefined) {
      return { name, value: module[name] };
    }
  }
  return undefined;
}
