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

/** A class rebuilt with its prototype (so `instanceof` holds too). */
interface RebuiltClass {
  readonly prototype: object;
  readonly CODE: string;
  readonly FORMER_CODES?: readonly string[];
}

/**
 * The core's classes by code, and by the codes they had before: data written by an older version
 * (a queue job's stored error, a worker of an older install) rebuilds as the class, with its code.
 */
const CLASSES: ReadonlyMap<string, RebuiltClass> = new Map(
  [ToolTimeoutError, CancelledError, InvalidOptionError, ToolDefinitionError, ModelError].flatMap(
    (errorClass: RebuiltClass) =>
      [errorClass.CODE, ...(errorClass.FORMER_CODES ?? [])].map(
        (code) => [code, errorClass] as const,
      ),
  ),
);

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
 * class's prototype when it is one of the package's core errors; a core error's former code (data
 * an older version wrote) comes back as the class's current code.
 */
export function fromErrorData(data: ErrorData): Error {
  const error = new Error(data.message);
  error.name = data.name;
  if (data.stack !== undefined) error.stack = data.stack;
  for (const [key, value] of Object.entries(data.data ?? {})) {
    if (key !== '__proto__')
      Object.defineProperty(error, key, { value, enumerable: true, writable: true });
  }
  const known =
    data.branded === true && data.code !== undefined ? CLASSES.get(data.code) : undefined;
  const code = known?.CODE ?? data.code;
  if (code !== undefined)
    Object.defineProperty(error, 'code', { value: code, enumerable: true, writable: true });
  if (data.branded === true) {
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
