import { createToolRegistry } from 'switchyard';
import type { AnyToolSpec } from 'switchyard/tools';
import { ToolRegistry } from 'switchyard/tools';
import { InputError } from './errors.js';
import { firstExport, importUserModule } from './import-user-module.js';

/** What a `--tools` module may export (as `default`, `registry`, `tools` or `createTools`). */
type ToolsExport = ToolRegistry | readonly AnyToolSpec[] | (() => unknown);

function looksLikeTool(value: unknown): value is AnyToolSpec {
  if (typeof value !== 'object' || value === null) return false;
  const tool = value as Record<string, unknown>;
  return (
    typeof tool.name === 'string' &&
    (typeof tool.handler === 'function' || typeof tool.executor === 'object')
  );
}

function registryOf(value: unknown, file: string): ToolRegistry {
  if (value instanceof ToolRegistry) return value;
  if (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ToolRegistry).modelDefinitions === 'function' &&
    typeof (value as ToolRegistry).list === 'function'
  ) {
    return value as ToolRegistry;
  }
  if (Array.isArray(value)) return createToolRegistry(value as AnyToolSpec[]);
  throw new InputError(
    `--tools ${file}: expected a ToolRegistry, an array of tools, or a function returning one`,
  );
}

/**
 * The registry a `--tools` module provides: its `default`, `registry`, `tools` or `createTools`
 * export (a `ToolRegistry`, an array of tools, or a function — sync or async — returning either),
 * else every named export that is a tool.
 *
 * @throws InputError when the module cannot be loaded or exports nothing usable;
 *   ToolDefinitionError when a tool is invalid.
 */
export async function loadTools(path: string, cwd?: string): Promise<ToolRegistry> {
  const module = await importUserModule(path, '--tools', cwd);
  const chosen = firstExport(module, ['default', 'registry', 'tools', 'createTools']);
  if (chosen !== undefined) {
    const value = chosen.value as ToolsExport;
    return registryOf(typeof value === 'function' ? await value() : value, path);
  }
  const tools = Object.values(module).filter(looksLikeTool);
  if (tools.length === 0) {
    throw new InputError(
      `--tools ${path}: the module exports no tools (export default a registry, an array of tools, or a function returning one)`,
    );
  }
  return createToolRegistry(tools);
}

/** Whether any tool of the registry runs on the worker pool (so the pool is worth starting). */
export function needsWorkerPool(registry: ToolRegistry): boolean {
  return registry.list().some((tool) => tool.executor.kind === 'worker');
}
