// The AI SDK's own tool approval behind Switchyard, across a restart: a destructive call ends the
// generation with a tool-approval-request, the conversation is saved, and a second generation
// (here in the same process, as it would be in a new one) sends the approval response; the run
// journal records the approval on that call and runs it once.
// Run: npm run build && npx tsx examples/embedding-ai-sdk-approvals.ts
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aiSdkTools } from '@switchyard/ai-sdk';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
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
const store = createFileJournalStore({ directory: mkdtempSync(join(tmpdir(), 'ai-sdk-journal-')) });
/** Signs the approval requests: an approval answers the very call and input it was asked for. */
const approvalSecret = 'keep-me-in-a-secret-store';

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const proposeRefund = {
  content: [
    {
      type: 'tool-call' as const,
      toolCallId: 'call-1',
      toolName: 'refund',
      input: '{"order":"o-7"}',
    },
  ],
  finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
  usage: USAGE,
  warnings: [],
};
const answer = (text: string) => ({
  content: [{ type: 'text' as const, text }],
  finishReason: { unified: 'stop' as const, raw: 'stop' },
  usage: USAGE,
  warnings: [],
});

/** One process's part: a generation over the run's journal, with the AI SDK's tool approval. */
async function generate(messages: ModelMessage[], model: MockLanguageModelV4) {
  const journal = await openRunJournal({ store, runId: 'chat-7', approvals: true });
  try {
    return await generateText({
      model,
      messages,
      stopWhen: stepCountIs(5),
      experimental_toolApprovalSecret: approvalSecret,
      ...aiSdkTools({ dispatcher, journal, approvals: true }),
    });
  } finally {
    await journal.close();
  }
}

// First process: the model proposes the refund; the generation ends with an approval request.
const messages: ModelMessage[] = [{ role: 'user', content: 'Refund order o-7' }];
const first = await generate(messages, new MockLanguageModelV4({ doGenerate: [proposeRefund] }));
messages.push(...first.responseMessages);
const saved = JSON.stringify(messages); // what the application persists

// Second process: the conversation is read back and the approval response sent.
const resumed: ModelMessage[] = JSON.parse(saved);
const approvals = first.content.flatMap((part) =>
  part.type === 'tool-approval-request'
    ? [{ type: 'tool-approval-response' as const, approvalId: part.approvalId, approved: true }]
    : [],
);
resumed.push({ role: 'tool', content: approvals });
const second = await generate(
  resumed,
  new MockLanguageModelV4({ doGenerate: [answer('o-7 refunded')] }),
);
console.log(second.text, '— refunds run:', refunded);
await store.close();
