import { type ProposedCall, toProposedCall } from 'switchyard';
import { isPlainObject } from 'switchyard/tools';
import { MAX_LINE_CHARS, readLineBatches } from './read-line-batches.js';

/** One planner turn read from a batch file. */
export type BatchTurn =
  | { readonly line: number; readonly calls: readonly ProposedCall[] }
  | { readonly line: number; readonly error: string };

function callsOf(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (!isPlainObject(value)) return null;
  if (Array.isArray(value.calls)) return value.calls; // ours
  if (Array.isArray(value.tool_calls)) return value.tool_calls; // OpenAI Chat assistant message
  if (Array.isArray(value.output)) {
    return value.output.filter((item) => isPlainObject(item) && item.type === 'function_call');
  }
  if (Array.isArray(value.content)) {
    return value.content.filter((block) => isPlainObject(block) && block.type === 'tool_use');
  }
  if (typeof value.name === 'string' || isPlainObject(value.function)) return [value];
  return null;
}

/**
 * Reads one JSONL line as a planner turn. Accepted shapes: an array of calls; `{calls: [...]}`;
 * an OpenAI Chat assistant message (`tool_calls`); an OpenAI Responses output (`output` with
 * `function_call` items); an Anthropic message (`content` with `tool_use` blocks); a single call.
 * Every call must be an object: a line such as `[1,2,3]` is unreadable. An object that is not a
 * well-formed call (no name, say) still becomes a proposed call, so it yields a result. A line of
 * any depth or size is a turn or one error (longer than `MAX_LINE_CHARS`, as `LineSplitter` cuts it).
 */
export function parseBatchLine(text: string, line: number): BatchTurn {
  if (text.length > MAX_LINE_CHARS) {
    return { line, error: `line ${line} is longer than ${MAX_LINE_CHARS} characters` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { line, error: `line ${line} is not valid JSON: ${(error as Error).message}` };
  }
  const raw = callsOf(value);
  if (raw === null) {
    return {
      line,
      error: `line ${line} holds no tool calls (expected an array, {calls}, {tool_calls}, {output} or {content})`,
    };
  }
  const notCall = raw.findIndex((element) => !isPlainObject(element));
  if (notCall !== -1) {
    return {
      line,
      error: `line ${line}: call ${notCall + 1} is not an object (${shapeOf(raw[notCall])})`,
    };
  }
  const calls = raw.map(
    (element): ProposedCall =>
      toProposedCall(element) ?? {
        name: isPlainObject(element) && typeof element.name === 'string' ? element.name : '',
        arguments: null,
      },
  );
  return { line, calls };
}

/** A short account of a value that is not a call; never recursive, so any depth is safe. */
function shapeOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
  return String(value);
}

/** The lines of a file (`-` reads standard input), one at a time. */
export async function* readLines(
  path: string,
  stdin?: NodeJS.ReadableStream,
): AsyncGenerator<string> {
  for await (const lines of readLineBatches(path, stdin)) yield* lines;
}

/** Whether a line holds nothing but white space (the usual line starts with `[` or `{`). */
function isBlank(text: string): boolean {
  const first = text.charCodeAt(0);
  return first !== 0x5b && first !== 0x7b && text.trim() === '';
}

/**
 * Streams the turns of a JSONL batch file (`-` reads standard input), a chunk's worth at a time,
 * skipping blank lines (which still count in line numbers).
 *
 * @throws InputError at once when the file cannot be opened.
 */
export function readBatchFile(
  path: string,
  stdin?: NodeJS.ReadableStream,
): AsyncIterable<BatchTurn[]> {
  return turnsOf(readLineBatches(path, stdin));
}

async function* turnsOf(batches: AsyncIterable<string[]>): AsyncGenerator<BatchTurn[]> {
  let line = 0;
  for await (const lines of batches) {
    const turns: BatchTurn[] = [];
    for (const text of lines) {
      line += 1;
      if (!isBlank(text)) turns.push(parseBatchLine(text, line));
    }
    if (turns.length > 0) yield turns;
  }
}
