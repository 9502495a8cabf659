// A durable agent run: its journal records each side-effecting call before and after it runs, a
// refund waits for a decision (durable approvals) instead of a prompt, and the run is resumed,
// here in the same process, as any process could: nothing that completed runs again.
// Run: npm run build && npx tsx examples/durable-run.ts
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentLoop, createToolRegistry, defineTool, type ModelClient } from 'switchyard';
import {
  createFileJournalStore,
  decideApproval,
  listPendingApprovals,
  openRunJournal,
} from 'switchyard/journal';
import { createScriptedModel, type ScriptedTurn } from 'switchyard/testing';

const payments = new Map<string, number>(); // the payment provider: one payment per key

const refund = defineTool<{ order: string; amount: number }, string>({
  name: 'refund',
  description: 'Refund an order.',
  inputSchema: {
    type: 'object',
    properties: { order: { type: 'string' }, amount: { type: 'number' } },
    required: ['order', 'amount'],
    additionalProperties: false,
  },
  // It moves money, so it waits for approval; it hands the provider its idempotency key, so a
  // run resumed after a crash mid-call may send it again and the provider applies it once.
  safety: { sideEffectLevel: 'network', spend: true, honorsIdempotencyKey: true },
  handler: ({ order, amount }, runtime) => {
    payments.set(runtime.idempotencyKey, amount); // e.g. Stripe's Idempotency-Key header
    return `refunded ${amount} for ${order}`;
  },
});

// A model whose reply depends only on the request (as a provider's does): a resumed run's replayed
// turns never reach it, so it must not count calls itself.
const plan: ScriptedTurn[] = [
  { toolCalls: [{ name: 'refund', arguments: { order: 'A-17', amount: 40 } }] },
  { text: 'Refund sent.' },
];
const model: ModelClient = {
  provider: 'scripted',
  model: 'example',
  toolCalling: 'native',
  stream(request) {
    const step = request.messages.filter((message) => message.role === 'assistant').length;
    return createScriptedModel({ turns: [plan[step] ?? { text: 'done' }] }).stream(request);
  },
};

const store = createFileJournalStore({ directory: mkdtempSync(join(tmpdir(), 'journal-')) });
const tools = createToolRegistry([refund]);

async function run() {
  const journal = await openRunJournal({ store, runId: 'ticket-4711', approvals: true });
  try {
    return await agentLoop({ task: 'Refund order A-17', model, tools, journal });
  } finally {
    await journal.close();
  }
}

const first = await run();
console.log(first.status); // 'interrupted': the refund waits for a decision
const [pending] = await listPendingApprovals(store);
console.log(pending?.toolName, pending?.arguments); // refund { order: 'A-17', amount: 40 }

// Later, from any process that reaches the store: a decision by call id, bound to these arguments.
await decideApproval(store, 'ticket-4711', {
  callId: pending?.callId ?? '',
  key: pending?.key,
  decision: 'approved',
  decidedBy: 'ana',
});
const second = await run();
console.log(second.status, second.text); // 'completed' 'Refund sent.'

const third = await run(); // replayed from the journal: the refund does not run again
console.log(third.replayed, payments.size); // { modelTurns: 2, toolCalls: 1 } 1
