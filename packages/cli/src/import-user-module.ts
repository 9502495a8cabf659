import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InputError } from './errors.js';

const TYPESCRIPT = new Set(['.ts', '.mts', '.cts', '.tsx']);
/** Set once tsx's loader is registered in this process. */
let typescriptLoader: Promise<void> | undefined;

type TsxApi = { register: () => unknown };

/** tsx's API as installed next to Switchyard, else as installed in the project of `file`. */
async function tsxApi(file: string): Promise<TsxApi> {
  // A variable specifier: tsx is optional, so its types are not part of the build.
  const specifier = 'tsx/esm/api';
  try {
    return (await import(specifier)) as TsxApi;
  } catch {
    const path = createRequire(file).resolve(specifier);
    return (await import(pathToFileURL(path).href)) as TsxApi;
  }
}

/** Registers tsx's ESM loader (through its public register API) so `import()` reads TypeScript. */
function loadTypeScript(file: string): Promise<void> {
  typescriptLoader ??= (async () => {
    let api: TsxApi;
    try {
      api = await tsxApi(file);
    } catch (error) {
      typescriptLoader = undefined;
      throw new InputError(
        `loading a TypeScript module needs tsx (npm install --save-dev tsx), or compile it to .js first (${(error as Error).message})`,
      );
    }
    api.register();
  })();
  return typescriptLoader;
}

/**
 * Imports a user's module (`--tools`, `--stack`, `--model-module`) by path, relative to `cwd`.
 * `.ts` modules load through tsx when it is installed (next to Switchyard or in the module's project).
 *
 * @throws InputError when the file is missing, or TypeScript is asked for without tsx, or the
 *   module throws while it loads.
 */
export async function importUserModule(
  path: string,
  option: string,
  cwd: string = process.cwd(),
): Promise<Record<string, unknown>> {
  const file = resolve(cwd, path);
  if (!existsSync(file)) throw new InputError(`${option}: no such module ${file}`);
  if (TYPESCRIPT.has(extname(file))) await loadTypeScript(file);
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw new InputError(`${option}: cannot load ${file}: ${(error as Error).message}`, {
      cause: error,
    });
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
