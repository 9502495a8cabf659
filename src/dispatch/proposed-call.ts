import { isPlainObject, type JsonObject } from '../tools/json.js';

/** A tool call as a model proposed it: a name and arguments (JSON text or an object). */
export interface ProposedCall {
  /** The provider's call id; generated when missing. */
  readonly id?: string;
  readonly name: string;
  readonly arguments?: string | JsonObject | null;
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function argumentsOf(value: unknown): ProposedCall['arguments'] {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  // Anything else is passed on as-is and refused by validation if it is not an object.
  return value as JsonObject;
}

/**
 * Reads a proposed call from any of the shapes models emit: ours (`{id, name, arguments}`),
 * OpenAI Chat (`{id, type: 'function', function: {name, arguments}}`), OpenAI Responses
 * (`{type: 'function_call', call_id, name, arguments}`) and Anthropic (`{type: 'tool_use', id,
 * name, input}`). Returns null for anything that is not a call, including objects whose getters
 * throw; never throws.
 */
export function toProposedCall(raw: unknown): ProposedCall | null {
  try {
    return readShape(raw);
  } catch {
    // A getter or proxy trap that throws: not a call this function can read.
    return null;
  }
}

function readShape(raw: unknown): ProposedCall | null {
  if (!isPlainObject(raw)) return null;
  if (isPlainObject(raw.function)) {
    const fn = raw.function;
    if (typeof fn.name !== 'string') return null;
    return withId(stringOrUndefined(raw.id), fn.name, argumentsOf(fn.arguments));
  }
  if (typeof raw.name !== 'string') return null;
  if (raw.type === 'tool_use') {
    return withId(stringOrUndefined(raw.id), raw.name, argumentsOf(raw.input));
  }
  if (raw.type === 'function_call') {
    return withId(
      stringOrUndefined(raw.call_id) ?? stringOrUndefined(raw.id),
      raw.name,
      argumentsOf(raw.arguments),
    );
  }
  const args = Object.hasOwn(raw, 'arguments') ? raw.arguments : raw.input;
  return withId(stringOrUndefined(raw.id), raw.name, argumentsOf(args));
}

function withId(
  id: string | undefined,
  name: string,
  args: ProposedCall['arguments'],
): ProposedCall {
  return id === undefined ? { name, arguments: args } : { id, name, arguments: args };
}
