// The Agents SDK's own approvals behind Switchyard, across a restart: the Runner interrupts on a
// destructive call, the RunState is saved as a string, and a second run (here in the same
// process, as it would be in a new one) approves it and resumes; the run journal records the
// approval on that call and runs it once.
// Run: npm run build && npx tsx examples/embedding-openai-agents-approvals.ts
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, RunState, run, setTracingDisabled } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents-core/testing';
import { openAIAgentsTools } from '@switchyard/openai-agents';
import { createDispatcher, createToolRegistry, defineTool } from 'switchyard';
import { createFileJournalStore, openRunJournal } from 'switchyard/journal';

setTracingDisabled(true); // an offline example: no traces to export

const refunded: string[] = [];
const refund = defineTool<{ order: string }, string>({
  name: 'refund',
  description: 'Refund an order.',
  inputSchema: {
    type: 'object',
    properties: { order: { type: 'string' } },
    required: ['order'],
    additionalProperties: false,
  },
  safety: { sideEffectLevel: 'network', destructive: true }, // destructive: it needs approval
  handler: async ({ order }) => {
    refunded.push(order);
    return `refunded ${order}`;
  },
});
const dispatcher = createDispatcher({ registry: createToolRegistry([refund]) });
const store = createFileJournalStore({ directory: mkdtempSync(join(tmpdir(), 'agents-journal-')) });

/** One process's part: the agent over the run's journal, with the Agents SDK's approvals. */
async function withAgent<T>(
  steps: ConstructorParameters<typeof ScriptedModel>[0],
  body: (agent: Agent) => Promise<T>,
): Promise<T> {
  const journal = await openRunJournal({ store, runId: 'order-7', approvals: true });
  try {
    const set = openAIAgentsTools({ dispatcher, journal, approvals: true });
    const model = set.model(new ScriptedModel(steps));
    return await body(new Agent({ name: 'orders', model, tools: set.tools }));
  } finally {
    await journal.close();
  }
}

// First process: the model proposes the refund; the Runner stops with an interruption.
const saved = await withAgent(
  [[functionCall('refund', { order: 'o-7' }, { callId: 'call-1' })]],
  async (agent) => {
    const result = await run(agent, 'Refund order o-7');
    console.log(
      'waiting for approval:',
      result.interruptions.map((item) => `${item.name} ${item.arguments}`),
    );
    return result.state.toString();
  },
);

// Second process: the saved RunState is read back, approved and resumed.
await withAgent([[assistantMessage('o-7 refunded')]], async (agent) => {
  const state = await RunState.fromString(agent, saved);
  for (const item of state.getInterruptions()) state.approve(item);
  const result = await run(agent, state);
  console.log(result.finalOutput, '— refunds run:', refunded);
});
await store.close();
