// docs/binder.md: a binder that fills a call's arguments from the model's intent.
import type { AnyTool } from 'switchyard/tools';

declare const getWeather: AnyTool;

// #region binder
import { createOpenAIBinder } from '@switchyard/openai';
import OpenAI from 'openai';
import { createDispatcher, createToolRegistry } from 'switchyard';
import {
  composeToolCallers,
  naturalLanguageExecutorMiddleware,
  toolsUseMiddleware,
} from 'switchyard/middleware';

const binder = naturalLanguageExecutorMiddleware({
  provider: 'openai',
  model: 'gpt-4.1-nano',
  timeoutMs: 300,
  binderFn: createOpenAIBinder({ client: new OpenAI(), model: 'gpt-4.1-nano' }),
});

const dispatcher = createDispatcher({
  // The model now sees an optional `_nl_intent` string on every tool.
  registry: toolsUseMiddleware(createToolRegistry([getWeather]), binder.schemaTransform),
  caller: composeToolCallers([binder.caller]),
});

// The planner sent only an intent: the binder fills { city: 'Paris', unit: 'c' } and the handler runs.
const result = await dispatcher.dispatch({
  name: 'get_weather',
  arguments: '{"_nl_intent":"weather in Paris, in celsius"}',
});
console.log(result.audit?.binder); // { provider: 'openai', model: 'gpt-4.1-nano', status: 'ok', latencyMs: 141.7, attempts: 1 }
// #endregion binder
