// docs/durability.md: an agent run with a run journal, resumable from any process.
import type { ModelClient, ToolRegistry } from 'switchyard';

declare const task: string;
declare const model: ModelClient;
declare const tools: ToolRegistry;
declare const directory: string;
declare const runId: string;

// #region journal
import { agentLoop } from 'switchyard';
import { createFileJournalStore, openRunJournal } from 'switchyard/journal';

const journal = await openRunJournal({ store: createFileJournalStore({ directory }), runId });
try {
  const run = await agentLoop({ task, model, tools, journal });
  console.log(run.status, run.inDoubt, run.pendingApprovals);
} finally {
  await journal.close();
}
// #endregion journal
