/**
 * One attempt at one run of the journal's fault campaign, in a process of its own (the campaign
 * kills it with SIGKILL at a random moment). Opens the run's journal (file store in JOURNAL_DIR, or
 * Redis at REDIS_URL), says `open` on stdout, runs the agent with durable approvals, and prints the
 * run's outcome as one JSON line.
 */
import { createRedisJournalStore } from '@switchyard/queue';
import { agentLoop } from 'switchyard';
import { createFileJournalStore, openRunJournal } from 'switchyard/journal';
import { faultModel, faultTools } from './journal-fault-agent.mjs';

const runId = process.env.RUN_ID;
const store =
  process.env.REDIS_URL === undefined
    ? createFileJournalStore({ directory: process.env.JOURNAL_DIR })
    : createRedisJournalStore({ connection: process.env.REDIS_URL });
const journal = await openRunJournal({ store, runId, approvals: true });
process.stdout.write('open\n');
const run = await agentLoop({
  task: 'orders',
  model: faultModel(runId),
  tools: faultTools(process.env.EFFECTS),
  journal,
  maxIterations: 10,
});
await journal.close();
await store.close();
process.stdout.write(
  `${JSON.stringify({
    status: run.status,
    results: run.results.map((result) => ({
      tool: result.toolName,
      order: result.arguments.order,
      status: result.status,
      errorCategory: result.errorCategory,
      ok: result.ok,
    })),
    inDoubt: run.inDoubt.length,
    pending: run.pendingApprovals.length,
  })}\n`,
);
