import type { AnyTool } from '../tools/tool-registry.js';

/** Where a worker tool's handler lives and which hidden values it receives. */
export interface WorkerTarget {
  /** `file:` (or `data:`) URL of the module exporting the handler. */
  readonly module: string;
  readonly exportName: string;
  /** The tool lists `context` in `injected`. */
  readonly context: boolean;
  /** The tool lists `secrets` in `injected`. */
  readonly secrets: boolean;
}

/** Targets by tool: tools are immutable, so each is resolved once (a module path becomes a URL). */
const targets = new WeakMap<AnyTool, WorkerTarget>();

/** The worker target of a tool; undefined when the tool is not declared with a worker executor. */
export function workerTarget(tool: AnyTool): WorkerTarget | undefined {
  let target = targets.get(tool);
  if (target === undefined) {
    const spec = tool.executor;
    if (spec.kind !== 'worker') return undefined;
    target = {
      module: moduleUrl(spec.module),
      exportName: spec.export ?? 'default',
      context: tool.injected.includes('context'),
      secrets: tool.injected.includes('secrets'),
    };
    targets.set(tool, target);
  }
  return target;
}

function moduleUrl(module: string | URL): string {
  if (module instanceof URL) return module.href;
  return module.startsWith('file:') || module.startsWith('data:')
    ? module
    : new URL(`file://${module}`).href;
}
