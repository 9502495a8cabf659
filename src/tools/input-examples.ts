import { ToolDefinitionError } from '../errors.js';
import { cloneJson } from './clone-json.js';
import { isPlainObject, type JsonObject, type JsonSchema } from './json.js';
import type { SchemaValidator } from './schema-validator.js';

/**
 * Checks a tool's `inputExamples` when the tool is defined: a list of argument objects, each
 * valid against the tool's input schema (an example the validator would refuse would teach the
 * model a call that fails).
 *
 * @returns the examples, deep-copied, in a frozen list; `undefined` when there are none.
 * @throws ToolDefinitionError with rule `input_examples` naming the example and what is wrong.
 */
export function checkInputExamples(
  toolName: string,
  examples: unknown,
  inputSchema: JsonSchema,
  validator: SchemaValidator,
): readonly JsonObject[] | undefined {
  if (examples === undefined) return undefined;
  const fail = (message: string): never => {
    throw new ToolDefinitionError(`tool ${JSON.stringify(toolName)}: ${message}`, {
      rule: 'input_examples',
      toolName,
    });
  };
  if (!Array.isArray(examples)) return fail('inputExamples must be an array of argument objects');
  examples.forEach((example: unknown, index) => {
    if (!isPlainObject(example)) fail(`inputExamples[${index}] must be an object of arguments`);
    const check = validator.check(toolName, inputSchema, example);
    if (!check.valid) {
      fail(`inputExamples[${index}] does not match the input schema: ${check.repair}`);
    }
  });
  if (examples.length === 0) return undefined;
  return Object.freeze(examples.map((example: JsonObject) => cloneJson(example)));
}

/**
 * A tool's description with its input examples written out, for providers and clients that have
 * no field of their own for them (OpenAI, MCP clients): one JSON object a line after an
 * `Input examples:` heading. Anthropic's adapter sends them natively instead.
 *
 * @returns `description` unchanged when there are no examples.
 * @example
 * describeWithExamples('Search the docs.', [{ query: 'retry policy', limit: 5 }]);
 * // 'Search the docs.\n\nInput examples:\n{"query":"retry policy","limit":5}'
 */
export function describeWithExamples(
  description: string,
  examples: readonly JsonObject[] | undefined,
): string {
  if (examples === undefined || examples.length === 0) return description;
  const lines = examples.map((example) => JSON.stringify(example)).join('\n');
  const heading = description === '' ? '' : `${description}\n\n`;
  return `${heading}Input examples:\n${lines}`;
}
