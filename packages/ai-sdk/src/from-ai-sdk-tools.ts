import { type Tool as AiSdkTool, asSchema, type ToolSet } from 'ai';
import type { JsonSchema, Tool, ToolSafety } from 'switchyard';
import { defineTool } from 'switchyard';

/** Options of `fromAiSdkTools`. */
export interface FromAiSdkToolsOptions {
  /**
   * Safety metadata per tool name. AI SDK tools declare none, so a tool left out here is treated
   * fail closed: it may write, and it is never retried.
   */
  readonly safety?: Readonly<Record<string, ToolSafety>>;
  /** Hard limit per execution, per tool name. */
  readonly timeoutMs?: Readonly<Record<string, number>>;
}

/**
 * Turns AI SDK tools (`tool({ inputSchema, execute })`, any schema the AI SDK accepts: zod, a
 * Standard Schema, `jsonSchema(...)`) into Switchyard tools, so an existing tool collection runs
 * under Switchyard's validation and middleware without being rewritten. The model-visible schema
 * is the AI SDK's own JSON Schema conversion. Tools without `execute` are skipped.
 *
 * @example
 * const registry = createToolRegistry(await fromAiSdkTools({ weather }, { safety: { weather: { readOnly: true } } }));
 * @throws ToolDefinitionError when a converted schema is not an object schema or a name is invalid.
 */
export async function fromAiSdkTools(
  tools: ToolSet,
  options: FromAiSdkToolsOptions = {},
): Promise<Tool[]> {
  const converted: Tool[] = [];
  for (const [name, source] of Object.entries(tools)) {
    const execute = (source as AiSdkTool).execute;
    if (typeof execute !== 'function') continue;
    const inputSchema = (await asSchema(source.inputSchema).jsonSchema) as JsonSchema;
    converted.push(
      defineTool({
        name,
        description: typeof source.description === 'string' ? source.description : '',
        inputSchema,
        safety: options.safety?.[name],
        timeoutMs: options.timeoutMs?.[name],
        handler: async (args, runtime) =>
          lastOutput(
            await execute(
              args as never,
              {
                toolCallId: runtime.callId,
                messages: [],
                abortSignal: runtime.signal,
              } as never,
            ),
          ),
      }) as Tool,
    );
  }
  return converted;
}

// A streaming AI SDK tool yields preliminary outputs; the last one is its result.
async function lastOutput(output: unknown): Promise<unknown> {
  if (output === null || typeof output !== 'object' || !(Symbol.asyncIterator in output)) {
    return output;
  }
  let last: unknown;
  for await (const value of output as AsyncIterable<unknown>) last = value;
  return last;
}
