import type { ToolCallResult } from 'switchyard';
import { toWireCategory } from 'switchyard/dispatch';
import type { BatchSummary } from './batch-stats.js';
import { jsonText } from './json-text.js';

const PREVIEW = 120;

/** A text folded onto one line and cut to a preview length. */
function oneLine(text: string): string {
  const line = text.replace(/\s*\n\s*/g, ' ').trim();
  return line.length > PREVIEW ? `${line.slice(0, PREVIEW)}…` : line;
}

function nullable(text: string | null | undefined): string {
  return text === null || text === undefined ? 'null' : JSON.stringify(text);
}

function numberOrNull(value: number | null): string {
  return value !== null && Number.isFinite(value) ? String(value) : 'null';
}

/**
 * JSON text of tool names, statuses, error categories and executor names: a batch repeats a few of
 * them on every line.
 */
const quotedWords = new Map<string, string>();
/** Past this many, words are quoted per use instead of kept (names come from the batch file). */
const MAX_KEPT_WORDS = 4096;

function quotedWord(word: string): string {
  let text = quotedWords.get(word);
  if (text === undefined) {
    text = JSON.stringify(word);
    if (quotedWords.size < MAX_KEPT_WORDS) quotedWords.set(word, text);
  }
  return text;
}

function quotedWordOrNull(word: string | null | undefined): string {
  return word === null || word === undefined ? 'null' : quotedWord(word);
}

/** One result as a line of text, or as one JSON object (`--json`). */
export function formatResultLine(result: ToolCallResult, line: number, json: boolean): string {
  if (json) {
    // Spelled out rather than JSON.stringify of a fresh object: this runs once per call, and
    // building the text from its parts costs about half as much.
    return `{"line":${line},"emitOrder":${result.emitOrder},"toolCallId":${JSON.stringify(result.toolCallId)},"toolName":${quotedWord(result.toolName)},"ok":${result.ok},"status":${quotedWord(result.status)},"errorCategory":${quotedWordOrNull(toWireCategory(result.errorCategory))},"result":${jsonText(result.result)},"error":${nullable(result.error)},"executor":${quotedWordOrNull(result.executor)},"executionDurationMs":${numberOrNull(result.executionDurationMs)}}\n`;
  }
  const duration =
    result.executionDurationMs === null ? '' : ` (${result.executionDurationMs.toFixed(2)} ms)`;
  const outcome = result.ok
    ? `→ ${oneLine(result.renderedResult)}`
    : oneLine(result.error ?? result.observation);
  return `  #${result.emitOrder} ${result.toolName || '(no name)'} ${result.status}${duration} ${outcome}\n`;
}

/** A failed call as a diagnostic line for stderr: where it came from and why it failed. */
export function formatFailure(result: ToolCallResult, line: number): string {
  const category = toWireCategory(result.errorCategory) ?? result.status;
  const id = result.toolCallId === '' ? '' : ` ${result.toolCallId}`;
  return `switchyard run: line ${line}: call${id} (${result.toolName || 'no name'}) failed: ${category}: ${oneLine(result.error ?? result.observation)}\n`;
}

/** The closing summary as text. */
export function formatSummary(summary: BatchSummary): string {
  const failures = Object.entries(summary.failedByCategory)
    .map(([category, count]) => `${category} ${count}`)
    .join(', ');
  const ms = (value: number) => value.toFixed(2);
  return [
    '',
    `turns      ${summary.turns}${summary.badLines > 0 ? ` (+${summary.badLines} unreadable lines)` : ''}`,
    `calls      ${summary.calls}: ${summary.ok} ok, ${summary.failed} failed${failures === '' ? '' : ` (${failures})`}`,
    `latency    p50 ${ms(summary.latencyMs.p50)} ms  p95 ${ms(summary.latencyMs.p95)} ms  p99 ${ms(summary.latencyMs.p99)} ms  max ${ms(summary.latencyMs.max)} ms`,
    `throughput ${summary.callsPerSecond.toFixed(0)} calls/s over ${ms(summary.wallMs)} ms`,
    '',
  ].join('\n');
}
