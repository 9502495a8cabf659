/**
 * The agent of the journal's fault campaign (journal-faults.ts): a plan of model turns fixed by the
 * run's id, and tools whose side effects are lines in one effects file shared by every process.
 * `record_order` and `refund` (which needs approval) are not idempotent; `pay` honours its
 * idempotency key the way a payment API does (a key seen before returns the earlier payment and
 * changes nothing); `lookup` is read-only. Each tool waits a little before and after its effect, so
 * a kill can land between the intent and the effect, and between the effect and the outcome.
 * Plain JavaScript over the build: every attempt is a fresh process, and starts in ~100 ms.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { createToolRegistry, defineTool } from 'switchyard';
import { createScriptedModel } from 'switchyard/testing';

/** A small seeded generator (mulberry32): the same seed always gives the same numbers. */
export function seeded(seed) {
  let state = 0;
  for (const char of seed) state = (Math.imul(state, 31) + char.charCodeAt(0)) | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The run's turns: orders, a payment, a refund that needs approval, then an answer. */
export function planOf(runId) {
  const call = (name, order) => ({ name, arguments: { run: runId, order } });
  return [
    { text: 'Looking the customer up.', toolCalls: [call('lookup', 0), call('record_order', 1)] },
    { toolCalls: [call('pay', 2), call('record_order', 3)] },
    { toolCalls: [call('refund', 4)] },
    { toolCalls: [call('record_order', 5)] },
    { text: 'All done.' },
  ];
}

/** The model of a run: its reply to a request is `planOf(runId)[n]`, n the turns answered. */
export function faultModel(runId) {
  const plan = planOf(runId);
  const fragmentDelayMs = Math.floor(seeded(`${runId}:model`)() * 3);
  return {
    provider: 'scripted',
    model: 'faults',
    toolCalling: 'native',
    stream(request) {
      const step = request.messages.filter((message) => message.role === 'assistant').length;
      return createScriptedModel({
        model: 'faults',
        turns: [plan[step] ?? { text: 'nothing left' }],
        fragmentChars: 8,
        fragmentDelayMs,
      }).stream(request);
    },
  };
}

/** The effects file's lines: `<run> <tool> <order> <idempotency key>`. */
export function readEffects(path) {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [run = '', tool = '', order = '', key = ''] = line.split(' ');
      return { run, tool, order: Number(order), key };
    });
}

const schema = {
  type: 'object',
  properties: { run: { type: 'string' }, order: { type: 'integer' } },
  required: ['run', 'order'],
  additionalProperties: false,
};

function pause(ms) {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}

/** The campaign's tools, writing their effects to `effects`. */
export function faultTools(effects) {
  const effect = (name, safety, once = false) =>
    defineTool({
      name,
      description: `${name} for an order`,
      inputSchema: schema,
      safety,
      handler: async ({ run, order }, runtime) => {
        await pause(Math.floor(Math.random() * 30));
        const key = runtime.idempotencyKey;
        // A payment API: a key it has seen returns the earlier payment and changes nothing.
        const seen = once && readEffects(effects).some((line) => line.key === key);
        if (!seen) appendFileSync(effects, `${run} ${name} ${order} ${key}\n`);
        await pause(Math.floor(Math.random() * 30));
        return `${name} ${order} done`;
      },
    });
  return createToolRegistry([
    defineTool({
      name: 'lookup',
      description: 'look the customer up',
      inputSchema: schema,
      safety: { readOnly: true },
      handler: ({ order }) => `customer of order ${order}`,
    }),
    effect('record_order', { sideEffectLevel: 'network', destructive: false }),
    effect(
      'pay',
      { sideEffectLevel: 'network', destructive: false, honorsIdempotencyKey: true },
      true,
    ),
    effect('refund', { sideEffectLevel: 'network', spend: true, requiresConfirmation: true }),
  ]);
}
