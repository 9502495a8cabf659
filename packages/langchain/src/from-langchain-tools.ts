import { isBaseMessage, type ToolMessage } from '@langchain/core/messages';
import type { RunnableToolLike } from '@langchain/core/runnables';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import type { JsonSchema, Tool, ToolRuntime, ToolSafety } from 'switchyard';
import { defineTool, toolOutput } from 'switchyard';
import { LangGraphToolContext } from './langgraph-tool-context.js';
import { contentBlocksOf } from './tool-message-content.js';

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

/** A LangChain tool: `tool(fn, { schema })`, a `StructuredTool`, or a runnable's `asTool()`. */
export type LangChainTool = StructuredToolInterface | RunnableToolLike;

/**
 * Turns LangChain tools (`tool(fn, { schema })`, `StructuredTool` subclasses, `asTool()`
 * runnables; zod, Standard JSON Schema or JSON Schema) into Switchyard tools, so an existing tool
 * collection runs under Switchyard's validation, middleware and receipts. The model-visible schema
 * is LangChain's own JSON Schema conversion. The handler invokes the tool as LangGraph's
 * `ToolNode` does, with the tool call (`{ id, name, args, type: 'tool_call' }`) and the call's
 * abort signal; run by `switchyardToolNode`, with the node's config, callbacks and graph state too
 * (`runtime.state`, `getCurrentTaskInput(config)`), and `interrupt()` pauses the graph.
 *
 * The call's `result` is what the tool returned: its `ToolMessage` (whose content the model reads
 * and whose `artifact` the node hands on) or its `Command`.
 *
 * @example
 * const registry = createToolRegistry(fromLangChainTools([search], { safety: { search: { readOnly: true } } }));
 * @throws ToolDefinitionError when a converted schema is not an object schema or a name is invalid.
 */
export function fromLangChainTools(
  tools: readonly LangChainTool[],
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
        injected: ['context'],
        handler: (args, runtime) => invokeLangChainTool(source, args, runtime),
      }) as Tool,
  );
}

async function invokeLangChainTool(
  source: LangChainTool,
  args: unknown,
  runtime: ToolRuntime,
): Promise<unknown> {
  const step = runtime.context instanceof LangGraphToolContext ? runtime.context : undefined;
  const call = { id: runtime.callId, name: source.name, args, type: 'tool_call' as const };
  let output: unknown;
  try {
    output = await source.invoke(
      call as never,
      step === undefined
        ? { signal: runtime.signal }
        : step.toolConfig(runtime.callId, runtime.signal),
    );
  } catch (error) {
    if (step === undefined) throw error;
    step.raise(runtime.callId, error);
  }
  if (!isToolMessage(output)) return output;
  return toolOutput({
    value: output,
    content: contentBlocksOf(output.content),
    isError: output.status === 'error',
  });
}

function isToolMessage(value: unknown): value is ToolMessage {
  return isBaseMessage(value) && value.getType() === 'tool';
}
