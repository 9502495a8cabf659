// generateText behind aiSdkTools with approvals, its side-effecting calls in a run journal on
// files: run in a child process of its own by approvals-restart.test.ts.
//
// Environment: DIR (the journal, the ledger and the conversation live there), STEP (`start`: the
// model proposes CALLS, JSON [{ id, name, order }], and the conversation is saved to
// `<DIR>/messages.json`; `resume`: the saved conversation gets an approval response per request,
// approving the calls listed in APPROVE (comma-separated ids) and denying the others, and
// generateText runs again), TAMPER (a call id: its saved input is changed before the resume),
// HANG (`model`: the model, asked after the approved calls ran, writes `<DIR>/model.hang` and
// never answers). Prints the approval requests, the text and any error as one JSON line.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createDispatcher, createToolRegistry } from 'switchyard';
import { createFileJournalStore, openRunJournal } from 'switchyard/journal';
import { ledgerOrderTool } from '../../../../test/support/order-ledger-tools.js';
import { aiSdkTools } from '../../src/index.js';
import { textResponse, toolCallResponse } from '../ai-sdk-support.js';

const dir = process.env.DIR as string;
const step = process.env.STEP as 'start' | 'resume';
const ledger = join(dir, 'ledger.txt');
const saved = join(dir, 'messages.json');
/** Signs each approval request, so an approval answers the very call and input it was asked for. */
const SECRET = 'approval-signing-secret';

const registry = createToolRegistry([
  ledgerOrderTool('charge', ledger, false),
  ledgerOrderTool('refund', ledger, true),
]);

const store = createFileJournalStore({ directory: join(dir, 'journal') });
const journal = await openRunJournal({ store, runId: 'chat-7', approvals: true });
const set = aiSdkTools({ dispatcher: createDispatcher({ registry }), journal, approvals: true });

const calls = JSON.parse(process.env.CALLS ?? '[]') as {
  id: string;
  name: string;
  order: string;
}[];
const proposed = toolCallResponse(
  calls.map((call) => ({
    id: call.id,
    name: call.name,
    input: JSON.stringify({ order: call.order }),
  })),
);
const hang = async (): Promise<never> => {
  writeFileSync(join(dir, 'model.hang'), '');
  return new Promise<never>(() => {});
};
const model = new MockLanguageModelV4({
  doGenerate:
    step === 'start'
      ? [proposed, textResponse('done')]
      : process.env.HANG === 'model'
        ? hang
        : [textResponse('done')],
});

let messages: ModelMessage[] = [{ role: 'user', content: 'handle the orders' }];
if (step === 'resume') {
  messages = JSON.parse(readFileSync(saved, 'utf8'));
  const approve = new Set((process.env.APPROVE ?? '').split(',').filter(Boolean));
  const responses = [];
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call' && part.toolCallId === process.env.TAMPER) {
        part.input = { order: 'o-9' };
      }
      if (part.type !== 'tool-approval-request') continue;
      const approved = approve.has(part.toolCallId);
      responses.push({
        type: 'tool-approval-response' as const,
        approvalId: part.approvalId,
        approved,
      });
    }
  }
  messages.push({ role: 'tool', content: responses });
}

try {
  const result = await generateText({
    model,
    messages,
    stopWhen: stepCountIs(5),
    experimental_toolApprovalSecret: SECRET,
    ...set,
  });
  if (step === 'start') {
    writeFileSync(saved, JSON.stringify([...messages, ...result.responseMessages]));
  }
  const requests = result.content.flatMap((part) =>
    part.type === 'tool-approval-request' ? [part.toolCall.toolCallId] : [],
  );
  process.stdout.write(`${JSON.stringify({ requests, text: result.text })}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ error: (error as Error).name })}\n`);
} finally {
  await journal.close();
  await store.close();
}
