import type { BaseMessage } from '@langchain/core/messages';
import { isGraphInterrupt, type LangGraphRunnableConfig } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import type { DispatchTurnOptions, ProposedCall, ToolCallResult } from 'switchyard';
import { dispatchTurn, InvalidOptionError } from 'switchyard';
import { RunJournal } from 'switchyard/journal';
import { describeWithExamples } from 'switchyard/tools';
import { decideThroughInterrupts } from './approval-interrupts.js';
import { answersConsumed, InterruptedSteps } from './interrupted-steps.js';
import { LangGraphToolContext } from './langgraph-tool-context.js';
import { readToolNodeInput } from './tool-node-input.js';
import { answerOf, toolNodeOutput } from './tool-node-output.js';

/**
 * Options of `switchyardToolNode`: those of a Switchyard turn, less the signal (the graph's) and
 * the context (the node's `LangGraphToolContext`), and the node's `name` and `tags`.
 */
export interface SwitchyardToolNodeOptions extends Omit<DispatchTurnOptions, 'signal' | 'context'> {
  /** The node's run name. Default `tools`. */
  readonly name?: string;
  /** Tags of the node's runs. */
  readonly tags?: string[];
}

/** The state a tool node reads and writes: LangGraph's `MessagesAnnotation`. */
export interface MessagesState {
  readonly messages: readonly BaseMessage[];
}

/**
 * A drop-in `ToolNode` (it is one: `createReactAgent({ tools })` and `addNode` take it) that runs
 * each step's calls as one Switchyard turn: every call of the last AI message that no
 * `ToolMessage` answers yet, or a `Send`'s one call (`lg_tool_call`). Unknown tools and
 * unparseable or schema-violating arguments, which `ToolNode` answers itself, reach Switchyard
 * too. It answers as `ToolNode` does: one `ToolMessage` per call in planner order (content:
 * Switchyard's observation; `status: 'error'` when the call failed; the tool's own `artifact`),
 * or the `Command` a tool returned, combined as `ToolNode` combines them; a list for a list input.
 *
 * The tools of the turn that list `context` in `injected` (`fromLangChainTools` tools do) receive
 * a `LangGraphToolContext`: the graph state and the node's config, so LangChain tools get
 * `runtime.state`, the node's callbacks and `interrupt()`. When a call pauses the graph
 * (`interrupt()`, a `GraphInterrupt`), the node waits for the step's other calls, keeps what they
 * returned, and throws the first pause to LangGraph; resumed, it answers those calls from what it
 * kept (in this process, while this node object lives) and runs only the rest.
 *
 * With a run journal (`journal`, from `openRunJournal` of `switchyard/journal`), a call the
 * journal completed in an earlier run (this process or another, a node run again from its
 * checkpoint after a crash) returns its recorded result instead of running again. With the
 * journal's `approvals`, a call that needs approval pauses the graph on a LangGraph `interrupt()`
 * whose value is an `ApprovalInterrupt` (the journal's pending approval, as data); the graph's
 * resume value (`new Command({ resume: true })`, see `ApprovalAnswer`) is recorded as the
 * decision on that call, by its id and arguments, and the call runs once (or is denied). The
 * other calls of the step run, and are answered from the journal when the node runs again.
 *
 * `tools` lists the registry's model-visible tools (the `advertised` ones when set) as LangChain
 * tool definitions, for `model.bindTools(node.tools)`. The graph's abort signal cancels the turn;
 * the thread id becomes the turn's session id unless `turn.sessionId` is set.
 *
 * @example
 * const graph = new StateGraph(MessagesAnnotation)
 *   .addNode('agent', callModel)
 *   .addNode('tools', switchyardToolNode({ dispatcher, maxConcurrentTools: 8 }))
 *   .addEdge(START, 'agent').addConditionalEdges('agent', toolsCondition).addEdge('tools', 'agent')
 *   .compile({ checkpointer });
 * @throws InvalidOptionError when `dispatcher` is missing. A run throws `InvalidArgumentError`
 * for an input that is neither messages, a state with `messages`, nor a `Send` payload.
 */
export function switchyardToolNode(options: SwitchyardToolNodeOptions): ToolNode {
  if (typeof options?.dispatcher?.dispatch !== 'function') {
    throw new InvalidOptionError(
      'dispatcher',
      'switchyardToolNode: dispatcher must be a Switchyard dispatcher',
    );
  }
  return new SwitchyardToolNode(options);
}

class SwitchyardToolNode extends ToolNode {
  readonly #options: SwitchyardToolNodeOptions;
  readonly #interrupted = new InterruptedSteps();
  /** Runs so far: each is a turn, counted in `turn.iteration`. */
  #iteration = 0;

  constructor(options: SwitchyardToolNodeOptions) {
    const { name, tags, ...turnOptions } = options;
    super(toolDefinitions(options) as never, { name, tags });
    this.#options = turnOptions;
  }

  protected override async run(input: unknown, config: LangGraphRunnableConfig) {
    const step = readToolNodeInput(input);
    const key = this.#interrupted.keyOf(config);
    const interrupted = this.#interrupted.take(key);
    const kept = interrupted.completed;
    const context = new LangGraphToolContext(step.state, config);
    context.skipAnswers(answersConsumed(interrupted));
    const dispatched = await this.#dispatch(
      step.calls.filter((call) => !kept.has(call.id as string)),
      context,
      config,
    );
    let next = 0;
    let results = step.calls.map(
      (call) => kept.get(call.id as string) ?? (dispatched[next++] as ToolCallResult),
    );
    // The first pause raised is the one LangGraph's next resume value answers; the others are
    // raised again when their calls run on resume.
    const [first] = context.raised;
    if (first !== undefined) {
      const [callId, pause] = first;
      this.#interrupted.keep(
        key,
        results,
        interrupted,
        isGraphInterrupt(pause) ? callId : undefined,
      );
      throw pause;
    }
    const { journal } = this.#options;
    if (journal instanceof RunJournal && (await decideThroughInterrupts(results, journal))) {
      results = await this.#dispatchDecided(step.calls, results, context, config);
    }
    // An aborted graph drops this run's writes too, and runs it again when invoked once more.
    if (config.signal?.aborted === true)
      this.#interrupted.keep(key, results, interrupted, undefined);
    return toolNodeOutput(results.map(answerOf), step.messageList);
  }

  /** Dispatches again the calls that waited for approval, now decided; the others keep their results. */
  async #dispatchDecided(
    calls: readonly ProposedCall[],
    results: readonly ToolCallResult[],
    context: LangGraphToolContext,
    config: LangGraphRunnableConfig,
  ): Promise<ToolCallResult[]> {
    const decided = calls.filter((_, index) => results[index]!.approval != null);
    const again = await this.#dispatch(decided, context, config);
    let next = 0;
    return results.map((result) => (result.approval == null ? result : again[next++]!));
  }

  #dispatch(
    calls: ProposedCall[],
    context: LangGraphToolContext,
    config: LangGraphRunnableConfig,
  ): Promise<ToolCallResult[]> {
    const threadId = config.configurable?.thread_id;
    return dispatchTurn(calls, {
      ...this.#options,
      signal: config.signal,
      context,
      turn: {
        ...(typeof threadId === 'string' ? { sessionId: threadId } : {}),
        ...this.#options.turn,
        iteration: this.#iteration++,
      },
    });
  }
}

/** The tools a model bound to this node is shown, as LangChain (OpenAI-style) tool definitions. */
function toolDefinitions(options: SwitchyardToolNodeOptions) {
  const { registry } = options.dispatcher;
  const advertised = options.advertised;
  return registry
    .modelDefinitions(advertised ?? [])
    .filter((tool) => advertised === undefined || advertised.has(tool.canonicalName))
    .map((tool) => ({
      type: 'function' as const,
      // OpenAI-style definitions have no field for examples: they go into the description.
      function: {
        name: tool.name,
        description: describeWithExamples(tool.description, tool.inputExamples),
        parameters: tool.inputSchema,
      },
    }));
}
