import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ToolCallResult } from 'switchyard';
import type { ToolCallDelta } from 'switchyard/streams';

/** One line of a task's journal. */
export type JournalRecord =
  /** The first line: a hash of what the task asked, so a journal of another task is not resumed. */
  | { readonly type: 'task'; readonly hash: string }
  /** A model turn that streamed to its end, as the deltas it sent. */
  | { readonly type: 'model_turn'; readonly index: number; readonly deltas: ToolCallDelta[] }
  /** A call about to execute: written (synchronously) before it runs. */
  | { readonly type: 'call_started'; readonly key: string; readonly callId: string }
  /** A call that finished executing, with what it returned. */
  | {
      readonly type: 'call_completed';
      readonly key: string;
      readonly callId: string;
      readonly result: JournaledResult;
    };

/** The part of a result the journal keeps: enough to hand the same result back. */
export type JournaledResult = Pick<
  ToolCallResult,
  | 'ok'
  | 'status'
  | 'result'
  | 'renderedResult'
  | 'observation'
  | 'error'
  | 'errorCategory'
  | 'executor'
  | 'executionDurationMs'
>;

/** What a journal held when it was opened: calls by key, in the order they were recorded. */
export interface JournalCallRecord {
  readonly key: string;
  readonly callId: string;
  /** Set when the call finished; absent when the run stopped while it executed. */
  readonly result?: JournaledResult;
}

/** The journal file of a task under `directory` (`/` and `\` in the id become `_`). */
export function journalPath(directory: string, taskId: string): string {
  return join(directory, `${taskId.replace(/[/\\]/g, '_')}.jsonl`);
}

/**
 * A task's resume journal: an append-only JSONL file of its finished model turns and of every
 * call it started and finished. Each line is written with a synchronous `write` before the run
 * goes on, so a process killed at any moment leaves every line it reached (the kernel keeps
 * them); a line cut off by the kill is ignored on reading.
 */
export class TaskJournal {
  /** Model turns recorded by earlier runs, in order. */
  readonly modelTurns: ToolCallDelta[][] = [];
  /** Calls recorded by earlier runs, in order (completed ones carry their result). */
  readonly calls: JournalCallRecord[] = [];
  private fd: number | undefined;
  /** Set when the file holds nothing to keep (absent, or another task's): it is started afresh. */
  private fresh = true;

  /**
   * Opens the journal at `path` for the task whose hash is `taskHash`. A journal written for a
   * different task (the line with that id was edited) is not resumed: it is replaced.
   */
  constructor(
    readonly path: string,
    private readonly taskHash: string,
  ) {
    if (existsSync(path)) this.read();
  }

  private read(): void {
    const lines = readFileSync(this.path, 'utf8').split('\n');
    const header = parseRecord(lines[0] ?? '');
    if (header?.type !== 'task' || header.hash !== this.taskHash) return;
    this.fresh = false;
    const pending = new Map<string, { key: string; callId: string; result?: JournaledResult }>();
    for (const text of lines.slice(1)) {
      const record = parseRecord(text);
      if (record === undefined || record.type === 'task') continue;
      if (record.type === 'model_turn') this.modelTurns.push(record.deltas);
      else if (record.type === 'call_started') {
        const entry = { key: record.key, callId: record.callId };
        pending.set(record.callId, entry);
        this.calls.push(entry);
      } else {
        const entry = pending.get(record.callId);
        if (entry !== undefined) entry.result = record.result;
        else this.calls.push({ key: record.key, callId: record.callId, result: record.result });
      }
    }
  }

  /** Whether an earlier run left anything to resume from. */
  get resumed(): boolean {
    return this.modelTurns.length > 0 || this.calls.length > 0;
  }

  /** Appends one record, synchronously. */
  write(record: JournalRecord): void {
    if (this.fd === undefined) {
      mkdirSync(dirname(this.path), { recursive: true });
      this.fd = openSync(this.path, this.fresh ? 'w' : 'a');
      if (this.fresh)
        writeSync(this.fd, `${JSON.stringify({ type: 'task', hash: this.taskHash })}\n`);
    }
    writeSync(this.fd, `${JSON.stringify(record)}\n`);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

function parseRecord(text: string): JournalRecord | undefined {
  if (text.trim() === '') return undefined;
  try {
    const record = JSON.parse(text) as JournalRecord;
    return typeof record === 'object' && record !== null ? record : undefined;
  } catch {
    return undefined; // a line cut off by a kill
  }
}
