import type { ToolCaller } from 'switchyard';
import { composeToolCallers } from 'switchyard';
import { InputError } from './errors.js';
import { firstExport, importUserModule } from './import-user-module.js';

function callersOf(value: unknown, path: string): ToolCaller[] {
  if (Array.isArray(value) && value.every((layer) => typeof layer === 'function')) {
    return value as ToolCaller[];
  }
  if (typeof value === 'function') return [value as ToolCaller];
  throw new InputError(
    `--stack ${path}: expected a tool caller (call, next) => result, an array of them, or a function returning either`,
  );
}

/**
 * The middleware a `--stack` module provides, outermost first: its `default`, `stack` or
 * `createStack` export — a tool caller `(call, next)`, an array of them, or a function of no
 * arguments (sync or async) returning either.
 *
 * @throws InputError when the module cannot be loaded or exports nothing usable.
 */
export async function loadStack(path: string, cwd?: string): Promise<ToolCaller[]> {
  const module = await importUserModule(path, '--stack', cwd);
  const chosen = firstExport(module, ['default', 'stack', 'createStack']);
  if (chosen === undefined) {
    throw new InputError(
      `--stack ${path}: export default a tool caller, an array of them, or a function returning one`,
    );
  }
  const { value } = chosen;
  // A tool caller takes (call, next); a factory takes nothing.
  if (typeof value === 'function' && value.length === 0) return callersOf(await value(), path);
  return callersOf(value, path);
}

/** One caller for a list of layers (outermost first), or undefined when there are none. */
export function composeLayers(layers: readonly ToolCaller[]): ToolCaller | undefined {
  if (layers.length === 0) return undefined;
  return layers.length === 1 ? layers[0] : composeToolCallers(layers);
}
