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
import type { ToolCallResult } from 'switchyard';
import { approvalJournalOf, runApprovedCall, toolNeedsApproval } from 'switchyard/journal';
import {
  checkDispatcher,
  type StepAdapterOptions,
  StepTurn,
  stepTurnOptions,
} from 'switchyard/streams';
import { describeWithExamples } from 'switchyard/tools';
import { PassingModel } from './passing-model.js';
import { unlistedCallOf } from './unlisted-call.js';

/** A function tool as the Agents SDK runs it, for agents of any context type. */
export type AgentsFunctionTool = FunctionTool<unknown, ToolInputParameters, string>;

/** Options of `openAIAgentsTools`. */
export interface OpenAIAgentsToolsOptions extends StepAdapterOptions {
  /**
   * Session facts stamped on every call. Default: `sessionId` is the run's trace `groupId` and
   * `runId` its `traceId`; `iteration` counts the run's steps that called Switchyard, from 0.
   */
  readonly turn?: StepAdapterOptions['turn'];
  /**
   * The Agents SDK's own approvals for Switchyard tools: each call of a tool that is destructive or
   * asks for confirmation (`toolNeedsApproval`) is an interruption of the run (`needsApproval`),
   * approved or rejected on its `RunState`; an approved call is recorded as approved in `journal`,
   * which must then be a run journal (`openRunJournal`), and runs once. Default false.
   */
  readonly approvals?: boolean;
}

/** What an agent takes: its `tools`, and its model wrapped so that every call reaches Switchyard. */
export interface OpenAIAgentsToolSet {
  /** One function tool per advertised Switchyard tool. */
  readonly tools: AgentsFunctionTool[];
  /** Wraps the agent's model (`new Agent({ model: set.model(model), tools: set.tools })`). */
  model(inner: Model): Model;
  /** Wraps a model provider, for agents whose model is a name (`new Runner({ modelProvider })`). */
  modelProvider(inner: ModelProvider): ModelProvider;
}

/** What the Runner hands a function tool's `invoke` beside the model's argument text. */
type ToolCallDetails = NonNullable<Parameters<AgentsFunctionTool['invoke']>[2]>;

/**
 * A function tool whose `invoke` takes the model's argument text as it is. The Agents SDK's
 * `tool()` builds the tool (its approval, enablement and timeout settings, which the Runner reads),
 * and only its `invoke` is replaced: `tool()`'s own would parse the text a second time and wrap
 * the call in its error and logging handling, none of which applies to a call Switchyard answers.
 * The Runner only parses the text itself, for approval, and the wrapped model has already carried
 * every text it cannot parse.
 */
function functionTool(
  name: string,
  description: string,
  parameters: object,
  needsApproval: boolean,
  invoke: AgentsFunctionTool['invoke'],
): AgentsFunctionTool {
  const made = tool({
    name,
    description,
    parameters: parameters as never,
    strict: false,
    needsApproval,
    execute: () => '',
  });
  return { ...(made as AgentsFunctionTool), invoke };
}

/** The calls of one model response; its turn opens when the first of them runs. */
interface Step {
  turn?: StepTurn;
}

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
 * `modelProvider`): before the Runner sees such a call, it carries it under the name of a
 * Switchyard tool the agent lists, the model's name and text inside its arguments (`unlistedCallOf`
 * reads them back), and it restores the call before the model reads its transcript.
 *
 * With a run journal (`journal`), a call the journal completed in an earlier run (a `RunState`
 * resumed in another process after a crash) returns its recorded result instead of running again.
 * With `approvals`, the Agents SDK's own interruptions hold the calls that need approval: approve
 * or reject them on `result.state` (serialise it with `toString()`, read it back anywhere with
 * `RunState.fromString(agent, text)`), and resume; an approved call is recorded as approved in the
 * journal, bound to its id and arguments, and runs once; a rejected one never runs.
 *
 * @example
 * const set = openAIAgentsTools({ dispatcher, maxConcurrentTools: 8 });
 * const agent = new Agent({ name: 'assistant', model: set.model(model), tools: set.tools });
 * const result = await run(agent, 'Weather in Oslo?');
 * @throws InvalidOptionError when `dispatcher` is missing, or `approvals` is on without a run
 *   journal.
 */
export function openAIAgentsTools(options: OpenAIAgentsToolsOptions): OpenAIAgentsToolSet {
  checkDispatcher(options, 'openAIAgentsTools');
  const { dispatcher } = options;
  const journal = approvalJournalOf(options, 'openAIAgentsTools');
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
    args: string,
    runContext: RunContext<unknown> | undefined,
    details: ToolCallDetails = {},
  ): Promise<string> {
    const callId = details.toolCall?.callId;
    // A call the wrapped model did not announce (a model left unwrapped, a resumed run) is a step
    // of its own.
    const step = (callId === undefined ? undefined : pending.get(callId)) ?? {};
    if (callId !== undefined) pending.delete(callId);
    step.turn ??= turnOf(runContext, details.signal);
    const call = { id: callId ?? randomUUID(), name, arguments: args };
    // Once decided, a call is dispatched again in a turn of its own: the step's turn answered it.
    let turn: StepTurn | undefined = step.turn;
    const dispatch = (): Promise<ToolCallResult> => {
      const current = turn ?? turnOf(runContext, details.signal);
      turn = undefined;
      return current.dispatch(call, details.signal);
    };
    // The Runner invokes a call that needs approval only once its run's state approved it.
    const result =
      journal !== undefined && toolNeedsApproval(dispatcher.registry.resolve(name))
        ? await runApprovedCall({ journal, decidedBy: APPROVER, dispatch })
        : await dispatch();
    return result.observation;
  }

  const tools: AgentsFunctionTool[] = [];
  for (const definition of dispatcher.registry.modelDefinitions(options.include)) {
    tools.push(
      functionTool(
        definition.name,
        // The Agents SDK's function tools have no field for examples: they go into the description.
        describeWithExamples(definition.description, definition.inputExamples),
        definition.inputSchema,
        journal !== undefined && toolNeedsApproval(dispatcher.registry.resolve(definition.name)),
        (runContext, input, details) => {
          // A call the wrapped model carried under this tool's name runs as the model wrote it.
          const carried = unlistedCallOf(input);
          return carried === null
            ? run(definition.name, input, runContext, details)
            : run(carried.name, carried.arguments, runContext, details);
        },
      ),
    );
  }
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

/** Who the journal records as having approved a call the Runner's state approved. */
const APPROVER = 'openai-agents';
