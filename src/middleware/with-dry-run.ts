import type { ToolCallEnvelope } from '../dispatch/envelope.js';
import { shortCircuitResult } from '../dispatch/result.js';
import type { ToolCaller } from '../dispatch/tool-caller.js';
import { checkString, checkStringList, optionsObject } from '../option-checks.js';
import { type LayerStage, Passage, stageLayer } from './layer-stage.js';
import { isCertainlyRefused, refusedPassage } from './refused-call.js';

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
  return stageLayer(dryRunStage(options));
}

/** The stage of `withDryRun`. */
export function dryRunStage(options?: DryRunOptions): LayerStage {
  const settings = optionsObject(FACTORY, options);
  const only = new Set(checkStringList(FACTORY, 'only', settings.only ?? []));
  const except = new Set(checkStringList(FACTORY, 'except', settings.except ?? []));
  const message = checkString(FACTORY, 'message', settings.message ?? '(dry run)');

  function runsForReal(toolName: string): boolean {
    return (only.size > 0 && !only.has(toolName)) || except.has(toolName);
  }

  return {
    name: LAYER,
    enter(call) {
      if (isCertainlyRefused(call)) return refusedPassage(call);
      if (runsForReal(call.toolName)) return new Passage(call);
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
    },
  };
}
