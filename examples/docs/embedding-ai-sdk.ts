// docs/embedding.md: Switchyard under the AI SDK's generateText, and AI SDK tools in a registry.
import type { LanguageModel, ModelMessage, Tool } from 'ai';
import type { Dispatcher } from 'switchyard';

declare const model: LanguageModel;
declare const dispatcher: Dispatcher;
declare const prompt: string;
declare const sessionId: string;
declare const messages: ModelMessage[];
declare const directory: string;
declare const chatId: string;
declare const secret: string;
declare const weather: Tool;
declare const search: Tool;

// #region generate-text
import { aiSdkTools } from '@switchyard/ai-sdk';
import { generateText, stepCountIs } from 'ai';

const result = await generateText({
  model,
  prompt,
  stopWhen: stepCountIs(10),
  ...aiSdkTools({ dispatcher, maxConcurrentTools: 8, turn: { sessionId } }),
});

// #endregion generate-text

// #region approvals
import { createFileJournalStore, openRunJournal } from 'switchyard/journal';

const journal = await openRunJournal({
  store: createFileJournalStore({ directory }),
  runId: chatId,
  approvals: true,
});
const set = aiSdkTools({ dispatcher, journal, approvals: true });
const waiting = await generateText({
  model,
  messages,
  stopWhen: stepCountIs(10),
  experimental_toolApprovalSecret: secret,
  ...set,
});

// waiting.content holds a `tool-approval-request` per call that waits; save the messages, ask,
// and, in any process, push a `tool-approval-response` per request and call generateText again.
// #endregion approvals

// #region from-ai-sdk-tools
import { fromAiSdkTools } from '@switchyard/ai-sdk';
import { createToolRegistry } from 'switchyard';

const registry = createToolRegistry(
  await fromAiSdkTools({ weather, search }, { safety: { weather: { readOnly: true } } }),
);

// #endregion from-ai-sdk-tools

export { registry, result, waiting };
