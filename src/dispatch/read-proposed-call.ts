import { errorMessage } from '../errors.js';
import type { ProposedCall } from './proposed-call.js';

/**
 * A call `readProposedCall` could not read: why, for the model, and its id when one could be read.
 * It also stands in for the call wherever a call is passed on, and reads the same way again
 * without touching the original (whose getters may answer differently).
 */
export class UnreadableCall {
  constructor(
    /** The call id, when one could be read. */
    readonly id: string | undefined,
    /** Why the call could not be read, for the model. */
    readonly message: string,
  ) {
    Object.freeze(this);
  }
}

/**
 * A proposed call read once: a plain copy of its `id`, `name` and `arguments` (no wrapper: every
 * call is read), or why it could not be read.
 */
export type ReadCall = ProposedCall | UnreadableCall;

export function isUnreadable(read: ReadCall): read is UnreadableCall {
  return read instanceof UnreadableCall;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function unreadable(id: string | undefined, key: string, error: unknown): UnreadableCall {
  return new UnreadableCall(
    id,
    `the call could not be read: reading its \`${key}\` threw (${errorMessage(error)})`,
  );
}

/**
 * Reads a model's proposed call into plain data, touching each of `id`, `name` and `arguments`
 * exactly once, so getters and proxies that throw or change their answer cannot reach the engine.
 * A name that is not a string reads as `''` (an unknown tool); a missing or unreadable id reads as
 * undefined. Never throws.
 *
 * @returns the plain copy, or an `UnreadableCall` when the value is not an object or its name or
 *   arguments could not be read.
 */
export function readProposedCall(raw: unknown): ReadCall {
  try {
    if (raw instanceof UnreadableCall) return raw;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      return new UnreadableCall(undefined, `the call is ${describe(raw)}, not an object`);
    }
  } catch (error) {
    // A revoked proxy, or one whose prototype trap throws.
    return unreadable(undefined, 'prototype', error);
  }
  const fields = raw as {
    readonly id?: unknown;
    readonly name?: unknown;
    readonly arguments?: unknown;
  };
  let id: string | undefined;
  try {
    const value = fields.id;
    if (typeof value === 'string' && value !== '') id = value;
  } catch {
    // An unreadable id is a missing one: the dispatcher generates another.
  }
  let name: unknown;
  try {
    name = fields.name;
  } catch (error) {
    return unreadable(id, 'name', error);
  }
  let args: unknown;
  try {
    args = fields.arguments;
  } catch (error) {
    return unreadable(id, 'arguments', error);
  }
  const canonicalName = typeof name === 'string' ? name : '';
  return id === undefined
    ? { name: canonicalName, arguments: args as ProposedCall['arguments'] }
    : { id, name: canonicalName, arguments: args as ProposedCall['arguments'] };
}
