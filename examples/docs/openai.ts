// packages/openai/README.md: a streamed Chat Completions turn read by the native detector, hosted
// tools on the Responses API, and the converters for a loop of your own.
import type { OpenAI } from 'openai';
import type { Dispatcher, ToolRegistry, TranscriptMessage } from 'switchyard';

declare const registry: ToolRegistry;
declare const dispatcher: Dispatcher;
declare const signal: AbortSignal;
declare const client: OpenAI;
declare const system: string;
declare const transcript: TranscriptMessage[];
declare const messages: unknown[];

// #region stream
import { createOpenAIChatModel } from '@switchyard/openai';
import { createNativeDetector, type DetectorEvent } from 'switchyard/detectors';

const model = createOpenAIChatModel({ model: 'gpt-5.1' }); // key from OPENAI_API_KEY
const events: DetectorEvent[] = [];
const detector = createNativeDetector({
  toolNames: registry.names(),
  resolveName: (name) => registry.resolve(name)?.name, // the model sees provider-safe aliases
  onEvent: (event) => events.push(event),
});
for await (const delta of model.stream({
  system: 'You are a careful assistant.',
  messages: [{ role: 'user', text: 'What is in a.md?' }],
  tools: registry.modelDefinitions(),
  signal,
})) {
  detector.push(delta);
}
detector.end();

// events: candidate_opened … candidate_promoted { call: { id: 'call_…', name: 'read', … }, emitOrder: 0 }
// #endregion stream

// #region hosted-tools
import { createOpenAIResponsesModel } from '@switchyard/openai';

const responses = createOpenAIResponsesModel({
  model: 'gpt-5.1',
  hostedTools: [{ type: 'web_search' }],
});

// #endregion hosted-tools

// #region own-loop
import {
  proposedCallsFromChatCompletion,
  toChatMessages,
  toChatToolMessages,
  toChatTools,
} from '@switchyard/openai';

const completion = await client.chat.completions.create({
  model: 'gpt-5.1',
  messages: toChatMessages(system, transcript),
  tools: toChatTools(registry.modelDefinitions()),
});
const calls = proposedCallsFromChatCompletion(completion);
const results = await Promise.all(
  calls.map((call, emitOrder) => dispatcher.dispatch(call, { emitOrder })),
);
messages.push(completion.choices[0]?.message, ...toChatToolMessages(results));

// #endregion own-loop

export { responses };
