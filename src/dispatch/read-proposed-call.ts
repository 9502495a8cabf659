import { errorMessage } from '../errors.js';
import type { ProposedCall } from './proposed-call.js';

/** A proposed call read once into plain data, or why it could not be read. */
export type ReadCall =
  | { readonly ok: true; readonly call: ProposedCall }
  | {
      readonly ok: false;
      /** The call id, when one could be read. */
      readonly id: string | undefined;
      /** Why the call could not be read, for the model. */
      readonly message: string;
    };

/** A call already found unreadable: reads the same way wherever it goes next. */
class UnreadableCall {
  constructor(readonly read: Extract<ReadCall, { ok: false }>) {
    Object.freeze(this);
  }
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function unreadable(id: string | undefined, key: string, error: unknown): ReadCall {
  return {
    ok: false,
    id,
    message: `the call could not be read: reading its \`${key}\` threw (${errorMessage(error)})`,
  };
}

/**
 * Reads a model's proposed call into plain data, touching each of `id`, `name` and `arguments`
 * exactly once, so getters and proxies that throw or change their answer cannot reach the engine.
 * A name that is not a string reads as `''` (an unknown tool); a missing or unreadable id reads as
 * undefined. Never throws.
 *
 * @returns `{ ok: true, call }`, or `{ ok: false, id, message }` when the value is not an object or
 *   its name or arguments could not be read.
 */
export function readProposedCall(raw: unknown): ReadCall {
  try {
    if (raw instanceof UnreadableCall) return raw.read;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      return { ok: false, id: undefined, message: `the call is ${describe(raw)}, not an object` };
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
  const call: ProposedCall =
    id === undefined
      ? { name: canonicalName, arguments: args as ProposedCall['arguments'] }
      : { id, name: canonicalName, arguments: args as ProposedCall['arguments'] };
  return { ok: true, call };
}

/**
 * A plain stand-in for a call `readProposedCall` could not read: it reads as unreadable again, with
 * the same id and message, without touching the original (whose getters may answer differently).
 */
export function unreadableCall(read: Extract<ReadCall, { ok: false }>): ProposedCall {
  return new UnreadableCall(read) as unknown as ProposedCall;
}
