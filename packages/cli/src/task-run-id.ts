import { canonicalHash } from 'switchyard/tools';
import type { BatchTask } from './batch-tasks.js';

/**
 * The journal run of a task: its id and a hash of what it asks (`task`, `system`, `history`), so a
 * task whose line was edited starts a run of its own instead of resuming one made for other
 * instructions. The old run stays in the journal, with anything in doubt still listed.
 */
export function taskRunId(task: BatchTask): string {
  const asked = canonicalHash({
    task: task.task,
    system: task.system ?? null,
    history: task.history ?? null,
  });
  return `${task.id}.${asked.slice(0, 12)}`;
}
