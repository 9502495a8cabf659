// An Agents SDK agent behind openAIAgentsTools with approvals, its side-effecting calls in a run
// journal on files: run in a child process of its own by approvals-restart.test.ts.
//
// Environment: DIR (the journal, the ledger and the saved run state live there), STEP (`start`:
// the model proposes CALLS, JSON [{ id, name, order }], and the run's state is saved to
// `<DIR>/state.json` at its interruptions; `resume`: the saved state is read back, the calls
// listed in APPROVE (comma-separated ids) approved and the others rejected, and the run resumed),
// HANG (`model`: the model, asked after the resumed calls ran, writes `<DIR>/model.hang` and never
// answers). Prints the run's interruptions and final output as one JSON line.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, RunState, run, setTracingDisabled } from '@openai/agents-core';
import {
  assistantMessage,
  functionCall,
  modelResponder,
  ScriptedModel,
} from '@openai/agents-core/testing';
import { createDispatcher, createToolRegistry } from 'switchyard';
import { createFileJournalStore, openRunJournal } from 'switchyard/journal';
import { ledgerOrderTool } from '../../../../test/support/order-ledger-tools.js';
import { openAIAgentsTools } from '../../src/index.js';

const dir = process.env.DIR as string;
const step = process.env.STEP as 'start' | 'resume';
const ledger = join(dir, 'ledger.txt');
const saved = join(dir, 'state.json');

const registry = createToolRegistry([
  ledgerOrderTool('charge', ledger, false),
  ledgerOrderTool('refund', ledger, true),
]);

setTracingDisabled(true);
const store = createFileJournalStore({ directory: join(dir, 'journal') });
const journal = await openRunJournal({ store, runId: 'order-7', approvals: true });
const set = openAIAgentsTools({
  dispatcher: createDispatcher({ registry }),
  journal,
  approvals: true,
});

const calls = JSON.parse(process.env.CALLS ?? '[]') as {
  id: string;
  name: string;
  order: string;
}[];
const hang = modelResponder(async () => {
  writeFileSync(join(dir, 'model.hang'), '');
  return new Promise<never>(() => {});
});
// A model in a new process starts from its first step: a resumed run only asks for the last.
const model = new ScriptedModel(
  step === 'start'
    ? [
        calls.map((call) => functionCall(call.name, { order: call.order }, { callId: call.id })),
        [assistantMessage('done')],
      ]
    : [process.env.HANG === 'model' ? hang : [assistantMessage('done')]],
);
const agent = new Agent({ name: 'orders', model: set.model(model), tools: set.tools });

try {
  let input: string | RunState<unknown, typeof agent> = 'handle the orders';
  if (step === 'resume') {
    const state = await RunState.fromString(agent, readFileSync(saved, 'utf8'));
    const approve = new Set((process.env.APPROVE ?? '').split(',').filter(Boolean));
    for (const item of state.getInterruptions()) {
      const callId = (item.rawItem as { callId: string }).callId;
      if (approve.has(callId)) state.approve(item);
      else state.reject(item);
    }
    input = state;
  }
  const result = await run(agent, input);
  if (result.interruptions.length > 0) writeFileSync(saved, result.state.toString());
  process.stdout.write(
    `${JSON.stringify({
      interruptions: result.interruptions.map((item) => {
        const raw = item.rawItem as { callId: string; name: string; arguments: string };
        return { callId: raw.callId, name: raw.name, arguments: JSON.parse(raw.arguments) };
      }),
      output: result.interruptions.length > 0 ? null : result.finalOutput,
    })}\n`,
  );
} finally {
  await journal.close();
  await store.close();
}
