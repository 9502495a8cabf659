// docs/embedding.md: Switchyard under the OpenAI Agents SDK's Runner, with approvals on RunState.
import type { Model } from '@openai/agents';
import type { Dispatcher } from 'switchyard';

declare const model: Model;
declare const dispatcher: Dispatcher;
declare const directory: string;
declare const runId: string;
declare const input: string;

// #region run
import { Agent, run } from '@openai/agents';
import { openAIAgentsTools } from '@switchyard/openai-agents';

const set = openAIAgentsTools({ dispatcher, maxConcurrentTools: 8 });
const agent = new Agent({ name: 'assistant', model: set.model(model), tools: set.tools });
const result = await run(agent, 'Weather in Oslo?');

// #endregion run

// #region approvals
import { RunState } from '@openai/agents';
import { createFileJournalStore, openRunJournal } from 'switchyard/journal';

const journal = await openRunJournal({
  store: createFileJournalStore({ directory }),
  runId,
  approvals: true,
});
const approving = openAIAgentsTools({ dispatcher, journal, approvals: true });
const orders = new Agent({ name: 'orders', model: approving.model(model), tools: approving.tools });
const outcome = await run(orders, input);
const saved = outcome.state.toString(); // outcome.interruptions: the calls that wait
// later, in any process:
const state = await RunState.fromString(orders, saved);
for (const item of state.getInterruptions()) state.approve(item); // or state.reject(item)
const resumed = await run(orders, state);

// #endregion approvals

export { result, resumed };
