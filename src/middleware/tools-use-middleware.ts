import { InvalidOptionError, ToolDefinitionError } from '../errors.js';
import { isPlainObject } from '../tools/json.js';
import type { AnyTool, AnyToolSpec, ToolRegistry } from '../tools/tool-registry.js';

/** A schema-time transform: returns the tool as the model should see it, or null to drop it. */
export type ToolTransform = (tool: AnyTool) => AnyToolSpec | null;

/**
 * The schema-time seam: rewrites every tool of a registry before the model sees it (add a
 * parameter, rewrite a description, drop a tool). Returns a new registry. The handler keeps its own
 * schema (`handlerSchema`): the executor validates the arguments middleware hands it against that.
 *
 * Throws a `ToolDefinitionError` when the transform returns anything but a tool spec or null.
 *
 * @example
 * const advertised = toolsUseMiddleware(registry, withRequiredReason().schemaTransform);
 */
export function toolsUseMiddleware(registry: ToolRegistry, transform: ToolTransform): ToolRegistry {
  if (typeof transform !== 'function') {
    throw new InvalidOptionError(
      'transform',
      `toolsUseMiddleware: transform must be a function; got ${typeof transform}`,
    );
  }
  if (
    registry === null ||
    typeof registry !== 'object' ||
    typeof registry.withTools !== 'function'
  ) {
    throw new InvalidOptionError(
      'registry',
      'toolsUseMiddleware: registry must be a ToolRegistry (createToolRegistry)',
    );
  }
  const transformed: AnyToolSpec[] = [];
  for (const tool of registry.list()) {
    const next = transform(tool);
    if (next === null) continue;
    if (!isPlainObject(next)) {
      throw new ToolDefinitionError(
        `toolsUseMiddleware: transform returned ${Array.isArray(next) ? 'an array' : typeof next} for tool "${tool.name}"; expected a tool spec or null`,
        { rule: 'transform_result', toolName: tool.name },
      );
    }
    transformed.push(
      next === tool ? tool : { ...next, handlerSchema: next.handlerSchema ?? tool.handlerSchema },
    );
  }
  return registry.withTools(transformed);
}
