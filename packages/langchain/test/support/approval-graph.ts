// A LangGraph agent behind switchyardToolNode, checkpointed in SQLite, its side-effecting calls in
// a run journal on files: run in a child process of its own by approvals-restart.test.ts.
//
// Environment: DIR (the checkpoint file, the journal and the ledger live there), STEP (`start`
// proposes the calls; `resume` answers the pending interrupt with RESUME, JSON; `continue`
// resumes from the last checkpoint), CALLS (JSON: the calls the model proposes), HANG (a tool
// name: its call writes `<DIR>/<tool>.hang` and never returns), JOURNAL (`off`: no journal).
// Prints the graph's final state (messages and interrupts) as one JSON line.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { Command, INTERRUPT } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { createDispatcher, createToolRegistry, defineTool } from 'switchyard';
import { createFileJournalStore, openRunJournal } from 'switchyard/journal';
import { ledgerOrderTool, ORDER_SCHEMA } from '../../../../test/support/order-ledger-tools.js';
import { switchyardToolNode } from '../../src/index.js';
import { FakeToolCallingChatModel } from './prebuilt-suite.js';

const dir = process.env.DIR as string;
const step = process.env.STEP as 'start' | 'resume' | 'continue';
const ledger = join(dir, 'ledger.txt');
const RUN = 'thread-1';

const store = createFileJournalStore({ directory: join(dir, 'journal') });

/** Resolves once the journal holds the outcome of a call of `tool` (checked every 20 ms). */
async function recorded(tool: string): Promise<void> {
  for (;;) {
    const records = (await store.read(RUN)) ?? [];
    if (records.some((record) => record.type === 'outcome' && record.key.includes(`#${tool}#`))) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// Hanging, it waits for the charge's record first: the kill then lands between the journal's
// record of the effect and the checkpoint of the node's writes.
async function lookup({ order }: { order: string }) {
  if (process.env.HANG === 'lookup') {
    if (process.env.JOURNAL !== 'off') await recorded('charge');
    writeFileSync(join(dir, 'lookup.hang'), '');
    await new Promise(() => {});
  }
  return `order ${order} is open`;
}

const registry = createToolRegistry([
  ledgerOrderTool('charge', ledger, false),
  ledgerOrderTool('refund', ledger, true),
  defineTool<{ order: string }, string>({
    name: 'lookup',
    description: 'Look an order up',
    inputSchema: ORDER_SCHEMA,
    safety: { readOnly: true },
    handler: lookup,
  }),
]);

const journal =
  process.env.JOURNAL === 'off'
    ? undefined
    : await openRunJournal({
        store,
        runId: RUN,
        approvals: true,
      });
const tools = switchyardToolNode({
  dispatcher: createDispatcher({ registry }),
  journal,
  maxConcurrentTools: 1,
});
// A model in a new process starts from its first response: the resumed steps only need its last.
const proposed = new AIMessage({ content: '', tool_calls: JSON.parse(process.env.CALLS ?? '[]') });
const llm = new FakeToolCallingChatModel({
  responses: step === 'start' ? [proposed, new AIMessage('done')] : [new AIMessage('done')],
});
const checkpointer = SqliteSaver.fromConnString(join(dir, 'checkpoints.db'));
const agent = createReactAgent({ llm, tools, checkpointer });
const thread = { configurable: { thread_id: 'thread-1' } };

const input =
  step === 'start'
    ? { messages: [new HumanMessage('handle the order')] }
    : step === 'resume'
      ? new Command({ resume: JSON.parse(process.env.RESUME as string) })
      : null;
try {
  const state = await agent.invoke(input, thread);
  const answers = state.messages
    .filter((message) => message instanceof ToolMessage)
    .map((message) => [message.tool_call_id, message.content]);
  const interrupts = ((state as Record<string, unknown>)[INTERRUPT] ?? []) as { value: unknown }[];
  process.stdout.write(
    `${JSON.stringify({
      answers,
      last: state.messages.at(-1)?.content,
      interrupts: interrupts.map((each) => each.value),
    })}\n`,
  );
} catch (error) {
  process.stdout.write(
    `${JSON.stringify({ error: (error as { code?: string }).code ?? String(error) })}\n`,
  );
} finally {
  await journal?.close();
  await store.close();
  checkpointer.db.close();
}
