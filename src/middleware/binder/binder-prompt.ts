import type { JsonObject, JsonSchema } from '../../tools/json.js';

/** The binder's default system prompt: bind to the schema, answer with one JSON object only. */
export const DEFAULT_BINDER_SYSTEM =
  'You are a fast argument binder for tool calls. Given a tool, the JSON Schema of its arguments ' +
  'and a natural-language intent, bind the intent to arguments that conform to the schema. ' +
  'Return exactly one JSON object: no prose, no markdown, no code fences.';

// Schemas are long-lived objects: serialize each once, not on every hop.
const schemaJson = new WeakMap<object, string>();

function jsonOf(schema: JsonSchema): string {
  let json = schemaJson.get(schema);
  if (json === undefined) {
    json = JSON.stringify(schema);
    schemaJson.set(schema, json);
  }
  return json;
}

/** The facts the binder's user prompt is rendered from. */
export interface BinderPromptInput {
  readonly tool: string;
  readonly description: string;
  readonly intent: string;
  readonly partialArgs: JsonObject;
  readonly schema: JsonSchema;
}

/**
 * Renders the binder's user prompt: the tool, its description, the intent, the arguments the
 * planner already gave (only when there are some) and the schema. The schema is in the prompt as
 * well as in the provider's structured-output setting, because OpenAI-compatible servers that
 * ignore `response_format` still read the prompt.
 *
 * @example
 * renderBinderPrompt({ tool: 'get_weather', description: 'Weather now', intent: 'Paris in celsius',
 *   partialArgs: {}, schema: { type: 'object' } });
 */
export function renderBinderPrompt(input: BinderPromptInput): string {
  const lines = [`Tool: ${input.tool}`];
  if (input.description !== '') lines.push(`Description: ${input.description}`);
  lines.push('', 'Intent:', input.intent);
  if (Object.keys(input.partialArgs).length > 0) {
    lines.push(
      '',
      'Arguments the caller already gave (keep them unless the intent contradicts them):',
      JSON.stringify(input.partialArgs),
    );
  }
  lines.push(
    '',
    'JSON Schema of the arguments:',
    jsonOf(input.schema),
    '',
    'Answer with the arguments as one JSON object.',
  );
  return lines.join('\n');
}
