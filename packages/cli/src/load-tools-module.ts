import type { ToolCaller } from 'switchyard';
import { createToolRegistry, InvalidOptionError } from 'switchyard';
import type { Executor } from 'switchyard/executors';
import { type AnyToolSpec, ToolRegistry } from 'switchyard/tools';
import { importUserModule } from './import-user-module.js';

/** What a tools module served by `switchyard mcp serve` provides. */
export interface ToolsModule {
  readonly registry: ToolRegistry;
  readonly caller?: ToolCaller;
  readonly executors?: readonly Executor[];
}

function registryOf(value: unknown): ToolRegistry | undefined {
  if (value instanceof ToolRegistry) return value;
  if (Array.isArray(value)) return createToolRegistry(value as AnyToolSpec[]);
  return undefined;
}

/**
 * Imports a tools module: its `registry` (or `tools`, or default) export is a `ToolRegistry` or an
 * array of tool specs; an optional `caller` export is the middleware (e.g. a governance stack's),
 * an optional `executors` export adds executors (a worker pool, MCP clients).
 * A `.ts` module loads natively, as every user module does (`importUserModule`).
 * Throws `InputError` when it cannot be loaded, `InvalidOptionError` when it has no tools.
 */
export async function loadToolsModule(path: string): Promise<ToolsModule> {
  const loaded = await importUserModule(path, 'tools module');
  const registry =
    registryOf(loaded.registry) ?? registryOf(loaded.tools) ?? registryOf(loaded.default);
  if (registry === undefined) {
    throw new InvalidOptionError(
      'tools-module',
      `${path} must export a ToolRegistry or an array of tools as "registry", "tools" or default`,
    );
  }
  const caller = typeof loaded.caller === 'function' ? (loaded.caller as ToolCaller) : undefined;
  const executors = Array.isArray(loaded.executors) ? (loaded.executors as Executor[]) : undefined;
  return {
    registry,
    ...(caller === undefined ? {} : { caller }),
    ...(executors === undefined ? {} : { executors }),
  };
}
