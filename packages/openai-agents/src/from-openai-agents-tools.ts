import {
  type Tool as AgentsTool,
  type FunctionTool,
  RunContext,
  type ToolInputParameters,
} from '@openai/agents-core';
import type { JsonSchema, Tool, ToolSafety } from 'switchyard';
import { defineTool } from 'switchyard';

/** Options of `fromOpenAIAgentsTools`. */
export interface FromOpenAIAgentsToolsOptions {
  /**
   * Safety metadata per tool name. Agents function tools declare none (`needsApproval` is a
   * Runner interruption, not a fact about the tool), so a tool left out here is treated fail
   * closed: it may write, and it is never retried.
   */
  readonly safety?: Readonly<Record<string, ToolSafety>>;
  /** Hard limit per execution, per tool name. */
  readonly timeoutMs?: Readonly<Record<string, number>>;
  /** The run context the tools read (`runContext.context`). Default: none. */
  readonly context?: unknown;
}

/**
 * Turns OpenAI Agents function tools (`tool({ parameters, execute })` with zod, a Standard Schema
 * or JSON Schema) into Switchyard tools, so an existing tool collection runs under Switchyard's
 * validation, middleware and receipts. The model-visible schema is the one the Agents SDK sends
 * (`tool.parameters`), validated by Switchyard; the handler is the tool's `invoke`, given the
 * call's id and abort signal. Tools of other kinds (hosted, computer, shell) are skipped.
 *
 * An Agents tool turns its own failures into text through its `errorFunction`; build it with
 * `errorFunction: null` for Switchyard to see them as failures.
 *
 * @example
 * const registry = createToolRegistry(fromOpenAIAgentsTools([getWeather], { safety: { get_weather: { readOnly: true } } }));
 * @throws ToolDefinitionError when a schema is not an object schema or a name is invalid.
 */
export function fromOpenAIAgentsTools(
  tools: readonly AgentsTool<never>[],
  options: FromOpenAIAgentsToolsOptions = {},
): Tool[] {
  const runContext = new RunContext(options.context) as RunContext<never>;
  return tools
    .filter(
      (source): source is FunctionTool<never, ToolInputParameters, unknown> =>
        source.type === 'function',
    )
    .map(
      (source) =>
        defineTool({
          name: source.name,
          description: source.description,
          inputSchema: source.parameters as JsonSchema,
          safety: options.safety?.[source.name],
          timeoutMs: options.timeoutMs?.[source.name],
          handler: (args, runtime) => {
            const text = JSON.stringify(args);
            return source.invoke(runContext, text, {
              toolCall: {
                type: 'function_call',
                callId: runtime.callId,
                name: source.name,
                arguments: text,
              },
              ...(runtime.signal === undefined ? {} : { signal: runtime.signal }),
            });
          },
        }) as Tool,
    );
}
