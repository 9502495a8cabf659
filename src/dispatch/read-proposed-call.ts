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

/** Marks a call already found unreadable, so it reads the same way wherever it goes next. */
const UNREADABLE = Symbol('switchyard.unreadableCall');

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** Reads one field; a throwing getter or proxy trap becomes `{ failed }`. */
function field(raw: object, key: string | symbol): { value: unknown } | { failed: string } {
  try {
    return { value: (raw as Record<string | symbol, unknown>)[key] };
  } catch (error) {
    return { failed: `reading its \`${String(key)}\` threw (${errorMessage(error)})` };
  }
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
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, id: undefined, message: `the call is ${describe(raw)}, not an object` };
  }
  const marked = field(raw, UNREADABLE);
  if ('value' in marked && marked.value !== undefined) return marked.value as ReadCall;
  const id = field(raw, 'id');
  const readId =
    'value' in id && typeof id.value === 'string' && id.value !== '' ? id.value : undefined;
  const name = field(raw, 'name');
  if ('failed' in name)
    return { ok: false, id: readId, message: `the call could not be read: ${name.failed}` };
  const args = field(raw, 'arguments');
  if ('failed' in args)
    return { ok: false, id: readId, message: `the call could not be read: ${args.failed}` };
  const call: ProposedCall = {
    ...(readId === undefined ? {} : { id: readId }),
    name: typeof name.value === 'string' ? name.value : '',
    arguments: args.value as ProposedCall['arguments'],
  };
  return { ok: true, call };
}

/**
 * A plain stand-in for a call `readProposedCall` could not read: it reads as unreadable again, with
 * the same id and message, without touching the original (whose getters may answer differently).
 */
export function unreadableCall(read: Extract<ReadCall, { ok: false }>): ProposedCall {
  return Object.freeze({ [UNREADABLE]: read }) as unknown as ProposedCall;
}
