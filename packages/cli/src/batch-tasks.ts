import type { TranscriptMessage } from 'switchyard';
import { isPlainObject } from 'switchyard/tools';
import { readLines } from './batch-file.js';

/** One line of a `switchyard batch` file: a task for one agent run. */
export interface BatchTask {
  /** Names the task in results, receipts and the resume journal; default `line-<n>`. */
  readonly id: string;
  readonly task: string;
  readonly system?: string;
  /** Messages before the task (a conversation to continue). */
  readonly history?: readonly TranscriptMessage[];
  /** Copied as it is onto the task's result line. */
  readonly metadata?: unknown;
  readonly line: number;
}

/** A line that is not a task, and why. */
export interface BadTaskLine {
  readonly line: number;
  readonly error: string;
}

const ROLES = new Set(['user', 'assistant', 'tool']);

function fail(line: number, error: string): BadTaskLine {
  return { line, error: `line ${line}: ${error}` };
}

/** Reads one JSONL line as a task `{ id, task, system?, history?, metadata? }`. */
export function parseTaskLine(text: string, line: number): BatchTask | BadTaskLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(line, `not valid JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(value)) return fail(line, 'a task must be an object { id, task, … }');
  const { id, task, system, history, metadata } = value;
  if (typeof task !== 'string' || task.trim() === '') {
    return fail(line, '"task" must be a non-empty string');
  }
  if (id !== undefined && typeof id !== 'string' && typeof id !== 'number') {
    return fail(line, '"id" must be a string or a number');
  }
  if (system !== undefined && typeof system !== 'string') {
    return fail(line, '"system" must be a string');
  }
  if (
    history !== undefined &&
    !(
      Array.isArray(history) &&
      history.every((m) => isPlainObject(m) && ROLES.has(m.role as string))
    )
  ) {
    return fail(line, '"history" must be an array of messages with role user, assistant or tool');
  }
  return {
    id: id === undefined ? `line-${line}` : String(id),
    task,
    ...(system === undefined ? {} : { system }),
    ...(history === undefined ? {} : { history: history as TranscriptMessage[] }),
    ...(metadata === undefined ? {} : { metadata }),
    line,
  };
}

/**
 * Every task of a batch file (`-` reads standard input), and the lines that are not tasks
 * (including a task whose id an earlier line already used).
 *
 * @throws InputError when the file cannot be opened.
 */
export async function readTasks(
  path: string,
  stdin?: NodeJS.ReadableStream,
): Promise<{ tasks: BatchTask[]; bad: BadTaskLine[] }> {
  const tasks: BatchTask[] = [];
  const bad: BadTaskLine[] = [];
  const seen = new Map<string, number>();
  let line = 0;
  for await (const text of readLines(path, stdin)) {
    line += 1;
    if (text.trim() === '') continue;
    const parsed = parseTaskLine(text, line);
    if ('error' in parsed) {
      bad.push(parsed);
      continue;
    }
    const first = seen.get(parsed.id);
    if (first !== undefined) {
      bad.push(fail(line, `id ${JSON.stringify(parsed.id)} is already used on line ${first}`));
      continue;
    }
    seen.set(parsed.id, line);
    tasks.push(parsed);
  }
  return { tasks, bad };
}
