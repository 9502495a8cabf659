import { createToolRegistry, type ToolRegistry } from 'switchyard';
import type { AnyTool } from 'switchyard/tools';

/**
 * A registry whose every tool runs on the queue (`executor: { kind: 'queue', queue }`), for a
 * dispatcher that sends a whole registry to `switchyard worker` processes. The workers load the
 * original registry, handlers included.
 *
 * @example
 * const dispatcher = createDispatcher({ registry: onQueue(registry), executors: [queue.executor] });
 */
export function onQueue(registry: ToolRegistry, queue?: string): ToolRegistry {
  const executor =
    queue === undefined ? { kind: 'queue' as const } : { kind: 'queue' as const, queue };
  return createToolRegistry(
    registry.list().map((tool: AnyTool) => ({ ...tool, executor })),
    { validator: registry.validator },
  );
}
