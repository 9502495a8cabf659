// LangGraph's own interrupt() and Command({ resume }) as Switchyard's durable approvals: a
// destructive call pauses the graph (checkpointed in SQLite), and a second graph over the same
// checkpoint file and journal (here in the same process, as it would be in a new one) resumes it
// with the decision; the run journal records it on that call and runs the call once.
// Run: npm run build && npx tsx examples/embedding-langchain-approvals.ts
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { Command, INTERRUPT } from '@langchain/langgraph';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { switchyardToolNode } from '@switchyard/langchain';
import { createDispatcher, createToolRegistry, defineTool } from 'switchyard';
import { createFileJournalStore, openRunJournal } from 'switchyard/journal';

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
const directory = mkdtempSync(join(tmpdir(), 'langgraph-approvals-'));
const store = createFileJournalStore({ directory: join(directory, 'journal') });
const config = { configurable: { thread_id: 'order-7' } };

/** A chat model that proposes the refund, then answers; `bindTools` keeps it as it is. */
class RefundModel extends FakeListChatModel {
  constructor(private readonly replies: AIMessage[]) {
    super({ responses: [] });
  }
  override bindTools() {
    return this;
  }
  override async _generate() {
    const message = this.replies.shift() ?? new AIMessage('nothing left to do');
    return { generations: [{ text: String(message.content), message }] };
  }
}

/** One process's part: the graph over the SQLite checkpoint and the run's journal. */
async function withGraph<T>(
  replies: AIMessage[],
  body: (graph: ReturnType<typeof createReactAgent>) => Promise<T>,
): Promise<T> {
  const journal = await openRunJournal({ store, runId: 'order-7', approvals: true });
  const checkpointer = SqliteSaver.fromConnString(join(directory, 'checkpoints.db'));
  try {
    const tools = switchyardToolNode({ dispatcher, journal });
    return await body(createReactAgent({ llm: new RefundModel(replies), tools, checkpointer }));
  } finally {
    checkpointer.db.close();
    await journal.close();
  }
}

// First process: the model proposes the refund; the graph pauses on an approval interrupt.
const proposal = new AIMessage({
  content: '',
  tool_calls: [{ id: 'call-1', name: 'refund', args: { order: 'o-7' } }],
});
await withGraph([proposal], async (graph) => {
  const paused = await graph.invoke({ messages: [new HumanMessage('Refund order o-7')] }, config);
  const [pause] = (paused as Record<string, unknown>)[INTERRUPT] as { value: unknown }[];
  console.log('waiting for approval:', pause?.value);
});

// Second process: the graph resumes from its checkpoint with the decision.
await withGraph([new AIMessage('o-7 refunded')], async (graph) => {
  const state = await graph.invoke(
    new Command({ resume: { decision: 'approved', decidedBy: 'ana' } }),
    config,
  );
  console.log(state.messages.at(-1)?.content, '— refunds run:', refunded);
});
await store.close();
