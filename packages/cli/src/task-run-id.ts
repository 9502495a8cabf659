import { canonicalHash } from 'switchyard/tools';
import type { BatchTask } from './batch-tasks.js';

/**
 * The journal run of a task: its id and a hash of what it asks (`task`, `system`, `history`), so a
 * task whose line was edited starts a run of its own instead of resuming one made for other
 * instructions. The old run stays in the journal, with anything in doubt still listed.
 */
export function taskRunId(task: BatchTask): string {
  // Canonical form 1, as the ids journals already hold were made: a task resumed after an upgrade
  // must find its run, not start another beside a call in doubt.
  const asked = canonicalHash(
    { task: task.task, system: task.system ?? null, history: task.history ?? null },
    1,
  );
  return `${task.id}.${asked.slice(0, 12)}`;
}
