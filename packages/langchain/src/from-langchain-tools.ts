import type { StructuredToolInterface } from '@langchain/core/tools';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import type { JsonSchema, Tool, ToolSafety } from 'switchyard';
import { defineTool } from 'switchyard';

/** Options of `fromLangChainTools`. */
export interface FromLangChainToolsOptions {
  /**
   * Safety metadata per tool name. LangChain tools declare none, so a tool left out here is
   * treated fail closed: it may write, and it is never retried.
   */
  readonly safety?: Readonly<Record<string, ToolSafety>>;
  /** Hard limit per execution, per tool name. */
  readonly timeoutMs?: Readonly<Record<string, number>>;
}

/**
 * Turns LangChain tools (`tool(fn, { schema })`, `StructuredTool` subclasses; zod, Standard JSON
 * Schema or JSON Schema) into Switchyard tools, so an existing tool collection runs under
 * Switchyard's validation, middleware and receipts. The model-visible schema is LangChain's own
 * JSON Schema conversion; the handler is the tool's `invoke`, given the call's abort signal.
 *
 * @example
 * const registry = createToolRegistry(fromLangChainTools([search], { safety: { search: { readOnly: true } } }));
 * @throws ToolDefinitionError when a converted schema is not an object schema or a name is invalid.
 */
export function fromLangChainTools(
  tools: readonly StructuredToolInterface[],
  options: FromLangChainToolsOptions = {},
): Tool[] {
  return tools.map(
    (source) =>
      defineTool({
        name: source.name,
        description: source.description ?? '',
        inputSchema: toJsonSchema(source.schema as never) as JsonSchema,
        safety: options.safety?.[source.name],
        timeoutMs: options.timeoutMs?.[source.name],
        handler: (args, runtime) => source.invoke(args as never, { signal: runtime.signal }),
      }) as Tool,
  );
}
