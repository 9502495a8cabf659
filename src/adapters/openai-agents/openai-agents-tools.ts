import { randomUUID } from 'node:crypto';
import {
  type AgentOutputItem,
  type FunctionTool,
  getCurrentTrace,
  type Model,
  type ModelProvider,
  NoopTrace,
  type RunContext,
  type ToolInputParameters,
  tool,
} from '@openai/agents-core';
import { isPlainObject, type JsonObject } from '../../tools/json.js';
import { checkDispatcher, type StepAdapterOptions, stepTurnOptions } from '../step-options.js';
import { StepTurn } from '../step-turn.js';
import { PassingModel } from './passing-model.js';
import { UNLISTED_CALL_TOOL, unlistedCallOf } from './unlisted-call.js';

/** A function tool as the Agents SDK runs it, for agents of any context type. */
export type AgentsFunctionTool = FunctionTool<unknown, ToolInputParameters, string>;

/** Options of `openAIAgentsTools`. */
export interface OpenAIAgentsToolsOptions extends StepAdapterOptions {
  /**
   * Session facts stamped on every call. Default: `sessionId` is the run's trace `groupId` and
   * `runId` its `traceId`; `iteration` counts the run's steps that called Switchyard, from 0.
   */
  readonly turn?: StepAdapterOptions['turn'];
}

/** What an agent takes: its `tools`, and its model wrapped so that every call reaches Switchyard. */
export interface OpenAIAgentsToolSet {
  /** One function tool per advertised Switchyard tool, and the hidden carrier tool. */
  readonly tools: AgentsFunctionTool[];
  /** Wraps the agent's model (`new Agent({ model: set.model(model), tools: set.tools })`). */
  model(inner: Model): Model;
  /** Wraps a model provider, for agents whose model is a name (`new Runner({ modelProvider })`). */
  modelProvider(inner: ModelProvider): ModelProvider;
}

// The Runner parsed the model's JSON; anything but an object goes to Switchyard as the model's own
// text, for Switchyard to judge.
function argumentsOf(
  input: unknown,
  details: { toolCall?: { arguments?: unknown } } | undefined,
): string | JsonObject {
  if (isPlainObject(input)) return input as JsonObject;
  const text = details?.toolCall?.arguments;
  return typeof text === 'string' ? text : JSON.stringify(input ?? null);
}

/** The calls of one model response; its turn opens when the first of them runs. */
interface Step {
  turn?: StepTurn;
}

const CARRIER_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, arguments: { type: 'string' } },
  required: ['name', 'arguments'],
  additionalProperties: false,
};

/** Calls announced but not yet run: bounded, since a call held for approval may never run. */
const MAX_PENDING_CALLS = 10_000;

/**
 * Hands a Switchyard dispatcher to the OpenAI Agents SDK's `Runner`. Every function call the model
 * proposes in a step — unknown names and unparseable JSON included, which the Runner would
 * otherwise answer itself — runs through Switchyard as one turn: one result and (with audit on)
 * one receipt per call, `maxConcurrentTools`, lanes and `emitOrder` across the step, Switchyard's
 * observation as the tool output the model reads, and the run's abort signal cancelling the step.
 *
 * The guarantees for unknown names and bad JSON need the wrapped model (`model` or
 * `modelProvider`): it rewrites such calls to a hidden carrier tool before the Runner sees them,
 * and restores them before the model reads its transcript.
 *
 * @example
 * const set = openAIAgentsTools({ dispatcher, maxConcurrentTools: 8 });
 * const agent = new Agent({ name: 'assistant', model: set.model(model), tools: set.tools });
 * const result = await run(agent, 'Weather in Oslo?');
 * @throws InvalidOptionError when `dispatcher` is missing.
 */
export function openAIAgentsTools(options: OpenAIAgentsToolsOptions): OpenAIAgentsToolSet {
  checkDispatcher(options, 'openAIAgentsTools');
  const { dispatcher } = options;
  const pending = new Map<string, Step>();
  const iterations = new WeakMap<object, number>();

  function turnOf(
    runContext: RunContext<unknown> | undefined,
    signal: AbortSignal | undefined,
  ): StepTurn {
    const current = getCurrentTrace();
    // With tracing off the run has no trace of its own, only the shared no-op one.
    const trace = current instanceof NoopTrace ? null : current;
    const key = runContext ?? pending;
    const iteration = iterations.get(key) ?? 0;
    iterations.set(key, iteration + 1);
    const found = {
      ...(trace?.groupId ? { sessionId: trace.groupId } : {}),
      ...(trace?.traceId ? { runId: trace.traceId } : {}),
    };
    return new StepTurn(stepTurnOptions(options, iteration, found), signal);
  }

  // The wrapped model announces each response's calls: they share one step, hence one turn.
  function announce(output: readonly AgentOutputItem[]): void {
    const step: Step = {};
    for (const item of output) {
      if (item.type !== 'function_call' || !ours.has(item.name)) continue;
      pending.delete(item.callId);
      pending.set(item.callId, step);
      if (pending.size > MAX_PENDING_CALLS) pending.delete(pending.keys().next().value as string);
    }
  }

  async function run(
    name: string,
    args: string | JsonObject,
    runContext: RunContext<unknown> | undefined,
    details: { toolCall?: { callId: string; arguments: string }; signal?: AbortSignal } = {},
  ): Promise<string> {
    const callId = details.toolCall?.callId;
    // A call the wrapped model did not announce (a model left unwrapped, a resumed run) is a step
    // of its own.
    const step = (callId === undefined ? undefined : pending.get(callId)) ?? {};
    if (callId !== undefined) pending.delete(callId);
    step.turn ??= turnOf(runContext, details.signal);
    const result = await step.turn.dispatch(
      { id: callId ?? randomUUID(), name, arguments: args },
      details.signal,
    );
    return result.observation;
  }

  const tools: AgentsFunctionTool[] = [];
  for (const definition of dispatcher.registry.modelDefinitions(options.include)) {
    tools.push(
      tool({
        name: definition.name,
        description: definition.description,
        parameters: definition.inputSchema as never,
        strict: false,
        execute: (input, runContext, details) =>
          run(definition.name, argumentsOf(input, details), runContext, details as never),
      }) as AgentsFunctionTool,
    );
  }
  tools.push(
    tool({
      name: UNLISTED_CALL_TOOL,
      description: 'Carries a call the agent cannot list to Switchyard; never shown to the model.',
      parameters: CARRIER_SCHEMA as never,
      strict: false,
      execute: (input, runContext, details) => {
        const carried = unlistedCallOf(details?.toolCall?.arguments ?? JSON.stringify(input));
        return carried === null
          ? run(UNLISTED_CALL_TOOL, argumentsOf(input, details), runContext, details as never)
          : run(carried.name, carried.arguments, runContext, details as never);
      },
    }) as AgentsFunctionTool,
  );
  const ours = new Set(tools.map((each) => each.name));

  const model = (inner: Model): Model => new PassingModel(inner, ours, announce);
  return {
    tools,
    model,
    modelProvider: (inner) => ({
      getModel: async (name) => model(await inner.getModel(name)),
    }),
  };
}
