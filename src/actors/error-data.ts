import {
  CancelledError,
  InvalidOptionError,
  ModelError,
  SwitchyardError,
  ToolDefinitionError,
  ToolTimeoutError,
} from '../errors.js';

/** The brand `SwitchyardError.isInstance` checks (a global symbol: it survives duplicate installs). */
const BRAND = Symbol.for('switchyard.error');

/** An error as plain data: structured clone keeps neither subclasses nor custom fields. */
export interface ErrorData {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
  readonly stack?: string;
  /** Own enumerable fields of the error (e.g. `status`, `category`), when clonable. */
  readonly data?: Record<string, unknown>;
  /** The error was a Switchyard error: it is rebuilt branded, so `isInstance` holds. */
  readonly branded?: true;
}

/** Classes rebuilt with their prototype (so `instanceof` holds too), by stable code. */
const CLASSES: ReadonlyMap<string, { readonly prototype: object }> = new Map<
  string,
  { readonly prototype: object }
>([
  [ToolTimeoutError.CODE, ToolTimeoutError],
  [CancelledError.CODE, CancelledError],
  [InvalidOptionError.CODE, InvalidOptionError],
  [ToolDefinitionError.CODE, ToolDefinitionError],
  [ModelError.CODE, ModelError],
]);

/** Turns anything thrown into `ErrorData`, keeping clonable own fields. */
export function toErrorData(thrown: unknown): ErrorData {
  if (!(thrown instanceof Error)) {
    return { name: 'Error', message: typeof thrown === 'string' ? thrown : safeString(thrown) };
  }
  const data: Record<string, unknown> = {};
  for (const key of Object.keys(thrown)) {
    const value = (thrown as unknown as Record<string, unknown>)[key];
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) data[key] = value;
  }
  const code = (thrown as { code?: unknown }).code;
  return {
    name: thrown.name,
    message: thrown.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(thrown.stack === undefined ? {} : { stack: thrown.stack }),
    ...(Object.keys(data).length === 0 ? {} : { data }),
    ...(SwitchyardError.isInstance(thrown) ? { branded: true as const } : {}),
  };
}

/**
 * Rebuilds an Error from `ErrorData` on the main thread, own fields restored. A Switchyard error
 * comes back branded with its code (`ToolTimeoutError.isInstance(rebuilt)` holds), and with its
 * class's prototype when it is one of the package's core errors.
 */
export function fromErrorData(data: ErrorData): Error {
  const error = new Error(data.message);
  error.name = data.name;
  if (data.stack !== undefined) error.stack = data.stack;
  for (const [key, value] of Object.entries(data.data ?? {})) {
    if (key !== '__proto__')
      Object.defineProperty(error, key, { value, enumerable: true, writable: true });
  }
  if (data.code !== undefined)
    Object.defineProperty(error, 'code', { value: data.code, enumerable: true, writable: true });
  if (data.branded === true) {
    const known = data.code === undefined ? undefined : CLASSES.get(data.code);
    if (known !== undefined) Object.setPrototypeOf(error, known.prototype);
    Object.defineProperty(error, BRAND, { value: true, enumerable: false });
  }
  return error;
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
