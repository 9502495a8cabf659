import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { shortCircuitResult, type ToolCallResult } from '../dispatch/result.js';
import type { Next, ToolCaller } from '../dispatch/tool-caller.js';
import { checkString, checkStringList, optionsObject } from '../option-checks.js';
import { layerFailure } from './layer-failure.js';
import { isCertainlyRefused, passRefused } from './refused-call.js';

/** Options of `withDryRun`. */
export interface DryRunOptions {
  /** When non-empty, only these tools are previewed; others run for real. */
  readonly only?: readonly string[];
  /** These tools always run for real (e.g. known-pure reads). */
  readonly except?: readonly string[];
  /** Leads the preview text. Default `(dry run)`. */
  readonly message?: string;
}

/** The `result` of a previewed call. */
export interface DryRunPreview {
  readonly dryRun: true;
  readonly args: ToolCallEnvelope['toolArgs'];
}

const FACTORY = 'withDryRun';
const LAYER = 'with_dry_run';

/**
 * Previews calls instead of running them: a previewed call never reaches `next` and yields
 * `ok: true`, status `dry_run`, `result: { dryRun: true, args }`, a rendered text
 * `"<message> — <tool>(<args>)"` and `audit.kind = 'think'`. A tool runs for real when `only` is
 * non-empty and does not list it, or when `except` lists it. A call the executor will refuse anyway
 * (unknown tool, unreadable arguments) is passed on, so the model learns its real mistake.
 *
 * Layer entry: `{ name: 'with_dry_run', status: 'preview' }` (none for calls that ran).
 *
 * @example
 * withDryRun({ except: ['read_file', 'search_files'] }); // neutralise everything that may write
 */
export function withDryRun(options?: DryRunOptions): ToolCaller {
  const settings = optionsObject(FACTORY, options);
  const only = new Set(checkStringList(FACTORY, 'only', settings.only ?? []));
  const except = new Set(checkStringList(FACTORY, 'except', settings.except ?? []));
  const message = checkString(FACTORY, 'message', settings.message ?? '(dry run)');

  function runsForReal(toolName: string): boolean {
    return (only.size > 0 && !only.has(toolName)) || except.has(toolName);
  }

  // Not `async`: a call that runs for real gets `next`'s own promise, without the extra microtask
  // turns an async function pays to adopt a returned promise.
  function with_dry_run(call: ToolCallEnvelope, next: Next): Promise<ToolCallResult> {
    if (isCertainlyRefused(call)) return passRefused(call, next);
    if (runsForReal(call.toolName)) return next(call);
    return preview(call);
  }

  /** The previewed call's result; what it throws is the layer's failure (`layerFailure`). */
  async function preview(call: ToolCallEnvelope): Promise<ToolCallResult> {
    try {
      const rendered = `${message} — ${call.toolName}(${JSON.stringify(call.toolArgs)})`;
      const value: DryRunPreview = { dryRun: true, args: call.toolArgs };
      return shortCircuitResult(call, {
        ok: true,
        status: 'dry_run',
        result: value,
        renderedResult: rendered,
        observation: `[dry run of ${call.toolName}]\n${rendered}\n`,
        audit: { kind: 'think', layers: [{ name: LAYER, status: 'preview' }] },
      });
    } catch (error) {
      return layerFailure(call, error, LAYER);
    }
  }

  return with_dry_run;
}
