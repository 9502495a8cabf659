// docs/streaming.md: a streamed model turn whose calls start as soon as each is whole.
import type { Dispatcher, ModelClient, ToolRegistry, TranscriptMessage } from 'switchyard';

declare const model: ModelClient;
declare const messages: TranscriptMessage[];
declare const registry: ToolRegistry;
declare const dispatcher: Dispatcher;

// #region streamed-turn
import { dispatchStreamedTurn } from 'switchyard';

const turn = await dispatchStreamedTurn({
  deltas: model.stream({ messages, tools: registry.modelDefinitions() }),
  dispatcher,
  maxConcurrentTools: 4,
});
console.log(turn.results); // one per promoted call, planner order
console.log(turn.candidates); // every call the model opened: promoted, retracted (with the repair message) or provider-native
// #endregion streamed-turn
