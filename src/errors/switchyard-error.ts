/**
 * Exceptions are for misuse (bad options, a broken contract), a broken host and cancellation.
 * What happens to a tool call is a result, never an exception.
 *
 * Every class has one code, `SY_ERR_<WHAT>`, which no result status or error category shares, so
 * a reader can tell an exception from a result. `isInstance` checks a global brand and the code,
 * so it holds across duplicate installs of this package and across worker threads and queues
 * (where errors are rebuilt from plain data).
 */
const BRAND = Symbol.for('switchyard.error');

/** A Switchyard error class, as `isInstance` and the error rebuilders see it. */
interface SwitchyardErrorClass {
  readonly prototype: object;
  /** The class's code, written on every error it makes. */
  readonly CODE: string;
  /** Codes the class had before; read as this class, never written. */
  readonly FORMER_CODES?: readonly string[];
}

/** True when `code` names the class: its code, or one it had before. */
function codeNames(errorClass: SwitchyardErrorClass, code: unknown): boolean {
  return code === errorClass.CODE || (errorClass.FORMER_CODES?.includes(code as string) ?? false);
}

/** The base of every Switchyard error: a stable `code` and a brand `isInstance` checks. */
export abstract class SwitchyardError extends Error {
  /** Stable machine-readable code, `SY_ERR_<WHAT>`; one per class. */
  abstract readonly code: string;
  readonly [BRAND] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }

  /**
   * True when `value` is a Switchyard error of this class: it carries the brand and the class's
   * code, or one of its former codes (an error from an older install, or rebuilt from data it
   * wrote). On `SwitchyardError` itself, true for any branded error.
   */
  static isInstance<T extends SwitchyardError>(
    this: abstract new (
      ...args: never[]
    ) => T,
    value: unknown,
  ): value is T {
    if (typeof value !== 'object' || value === null) return false;
    if ((value as Record<PropertyKey, unknown>)[BRAND] !== true) return false;
    // biome-ignore lint/complexity/noThisInStatic: `this` is the subclass isInstance is called on.
    const errorClass = this as unknown as Partial<SwitchyardErrorClass>;
    if (errorClass.CODE === undefined) return true;
    return codeNames(errorClass as SwitchyardErrorClass, (value as { code?: unknown }).code);
  }
}
