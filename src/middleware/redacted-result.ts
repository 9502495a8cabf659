import { renderValue } from '../dispatch/render-output.js';
import type { ToolCallResult } from '../dispatch/result.js';

/** Replaces `old` inside `text`; when it cannot be found, the whole text goes (fail closed). */
function rewrite(text: string, old: string, replacement: string): string {
  if (old === '') return text === '' ? replacement : text;
  return text.includes(old) ? text.split(old).join(replacement) : replacement;
}

function bound(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[… redacted output truncated to ${maxChars} of ${text.length} characters …]`;
}

/** The result with its texts as strings (or a null error), whatever a hand-built result left out. */
function readable(result: ToolCallResult): ToolCallResult {
  const { renderedResult, observation, error } = result as Partial<ToolCallResult>;
  if (
    typeof renderedResult === 'string' &&
    typeof observation === 'string' &&
    (error === null || typeof error === 'string')
  )
    return result;
  return {
    ...result,
    renderedResult: typeof renderedResult === 'string' ? renderedResult : '',
    observation: typeof observation === 'string' ? observation : '',
    error: typeof error === 'string' ? error : null,
  };
}

/**
 * A copy of the result with a redacted value and error text, everywhere the model could read them.
 * A new `result` replaces the structured value, the rendered text (re-rendered from it, bounded
 * to `maxChars`) and that text inside the observation and error; content blocks and artifact
 * references, made from the unredacted output, are dropped. A new `error` replaces the error text
 * wherever it appears. Text that cannot be located is replaced whole.
 */
export function redactedResult(
  result: ToolCallResult,
  replacement: { readonly result?: unknown; readonly error?: string },
  maxChars: number,
): ToolCallResult {
  let redacted = readable(result);
  if (replacement.result !== undefined) {
    const { content: _content, artifacts: _artifacts, ...rest } = redacted;
    const text = bound(renderValue(replacement.result), maxChars);
    const old = redacted.renderedResult;
    redacted = {
      ...rest,
      result: replacement.result,
      renderedResult: text,
      observation: rewrite(redacted.observation, old, text),
      error: redacted.error === null ? null : rewrite(redacted.error, old, text),
    };
  }
  if (typeof replacement.error === 'string' && redacted.error !== null) {
    const old = redacted.error;
    const error = replacement.error;
    redacted = {
      ...redacted,
      error,
      renderedResult:
        redacted.renderedResult === '' ? '' : rewrite(redacted.renderedResult, old, error),
      observation: rewrite(redacted.observation, old, error),
    };
  }
  return redacted;
}

/**
 * A copy of the result with its output withheld (status `redacted`): what the tool produced could
 * not be checked, so none of it reaches the model. `ok` is kept: the tool did run.
 */
export function withheldResult(result: ToolCallResult): ToolCallResult {
  const { content: _content, artifacts: _artifacts, ...rest } = result;
  const notice = `[output of ${result.toolName} withheld: it could not be checked for secrets]`;
  return {
    ...rest,
    status: 'redacted',
    result: null,
    renderedResult: notice,
    observation: notice,
    error: result.ok ? null : notice,
  };
}
