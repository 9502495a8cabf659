import { retryableDenial, type ToolDenial, type ToolOutput, toolOutput } from 'switchyard';

/** A host tool's answer to a call it would not execute: the typed denial rides on the value. */
export interface HostRefusal {
  readonly status: 'refused';
  readonly denial: ToolDenial;
}

/** A denial of a path or working directory outside the tool set's root (a corrected value may pass). */
export function scopeDenial(reason: string, path: string, capability: string): ToolDenial {
  return retryableDenial('arg_constraint', reason, { capability, deniedPaths: [path] });
}

/**
 * The result a host tool returns instead of executing: `ok: false` with status `error`, the
 * model-facing text `[refused] <reason>`, and `{ status: 'refused', denial }` as the value.
 */
export function refusedOutput(denial: ToolDenial): ToolOutput {
  const value: HostRefusal = { status: 'refused', denial };
  return toolOutput({
    value,
    isError: true,
    content: [{ type: 'text', text: `[refused] ${denial.reason}` }],
  });
}

/** True when a host tool's value is a refusal. */
export function isHostRefusal(value: unknown): value is HostRefusal {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { status?: unknown }).status === 'refused' &&
    typeof (value as { denial?: unknown }).denial === 'object'
  );
}
