import { randomUUID } from 'node:crypto';
import { createSessionActor, type SessionActor } from '../actors/session-actor.js';
import { AbortLink, turnCancellationOf } from '../cancellation.js';
import { sleep as timerSleep } from '../dispatch/backoff.js';
import { createDispatcher, type Dispatcher } from '../dispatch/dispatcher.js';
import type { ToolCallResult } from '../dispatch/result.js';
import type { ToolCaller } from '../dispatch/tool-caller.js';
import { CancelledError, ModelError } from '../errors.js';
import { composeToolCallers } from '../middleware/compose-tool-callers.js';
import type { TranscriptMessage } from '../providers/model-client.js';
import { dispatchStreamedTurn } from '../streams/streamed-turn.js';
import type { ToolCallDelta } from '../streams/tool-call-delta.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import { type AgentSettings, checkAgentOptions } from './agent-options.js';
import { assistantMessage, toolResultsMessage } from './agent-transcript.js';
import { agentTurn } from './agent-turn.js';
import type { AgentLoopOptions, AgentRun, AgentStatus, AgentTurn } from './agent-types.js';
import { DONE_MARKER } from './agent-types.js';
import { withLoopGuard } from './loop-guard.js';
import { inDoubtOf, waitingOn } from './run-stops.js';
import type { ToolSearchView } from './tool-search-hook.js';
import type { OpenToolSource } from './tool-source.js';

const CONTINUE_NUDGE = `You have not said that the task is complete. Continue working on it; when it is complete, reply with ${DONE_MARKER}.`;

/**
 * Runs an agent: model turn → streamed detection → dispatch (safe calls start while the model
 * still writes) → results appended in planner order → next turn, until the model stops calling
 * tools, says it is done (`loopUntilDone`), the iteration cap is reached, or the signal aborts.
 * A turn the provider paused (Anthropic `pause_turn`) is sent back as it is, and counts as an
 * iteration.
 * Transient model failures (429, overload, lost connection) are retried with backoff. Never
 * rejects for what the model or a tool did: the run's `status` and `error` say how it ended,
 * and every dispatched call has its result.
 *
 * With a `journal` (`openRunJournal` from `switchyard/journal`), the run is durable: its model
 * turns are recorded and replayed on resume, a call an earlier run completed returns its recorded
 * result, and the run stops `in_doubt` at a call that may or may not have taken effect, or
 * `interrupted` at calls waiting for approval (see docs/durability.md). An `interrupt` signal stops
 * it gracefully: no call starts, running calls finish within `interruptGraceMs`.
 *
 * With a `toolSource` (MCP servers: `mcpToolSource` from `@switchyard/mcp`), the source is opened
 * first and its tools join `tools`; between turns the loop asks it whether they changed, and it is
 * closed when the run ends, however it ends.
 *
 * @throws InvalidOptionError naming the option when an option is invalid; whatever opening the
 *   `toolSource` throws (an MCP server that cannot be reached, a tool name that clashes).
 * @example
 * const run = await agentLoop({
 *   task: 'What is 17 × 23?',
 *   model: createScriptedModel({ turns: [...] }),
 *   tools: createToolRegistry(stdlibTools()), // from '@switchyard/host-tools'
 *   maxConcurrentTools: 4,
 * });
 * run.status; // 'completed'
 */
export async function agentLoop(options: AgentLoopOptions): Promise<AgentRun> {
  const settings = checkAgentOptions(options);
  const source =
    options.toolSource === undefined ? null : await options.toolSource.open(options.tools);
  try {
    return await runAgent(options, settings, source);
  } finally {
    await source?.close();
  }
}

async function runAgent(
  options: AgentLoopOptions,
  settings: AgentSettings,
  source: OpenToolSource | null,
): Promise<AgentRun> {
  const { model, signal, onEvent, journal, interrupt } = options;
  const sessionId = options.sessionId ?? `session_${randomUUID()}`;
  const runId = journal?.runId ?? options.runId ?? `run_${randomUUID()}`;
  // A resumed run replays its model turns: its calls come back in the same places, new ids or not.
  const callJournal = journal?.callsBy('position');
  const session =
    options.loopDetection === false && options.toolSearch === undefined
      ? null
      : createSessionActor({
          sessionId,
          ...(options.loopDetection === false ? {} : { loop: options.loopDetection }),
        });
  const caller = callerOf(options.loopDetection === false ? null : session, options.toolCaller);
  const executors = [
    ...(options.dispatcher?.executors ?? []),
    ...(source?.executor === undefined ? [] : [source.executor]),
  ];
  let wiring: Wiring | undefined;
  /** The tools of the next turns: search view, registry, dispatcher (and its event feed). */
  function wire(tools: ToolRegistry): Wiring {
    const searchView =
      options.toolSearch === undefined || session === null
        ? null
        : options.toolSearch({ tools, model, session, emit: (event) => onEvent?.(event) });
    const registry = searchView?.registry ?? tools;
    const dispatcher = createDispatcher({ ...options.dispatcher, executors, registry, caller });
    const subscription =
      onEvent === undefined ? undefined : dispatcher.events$.subscribe((event) => onEvent(event));
    return { tools, searchView, registry, dispatcher, subscription };
  }
  const transcript: TranscriptMessage[] = [...(options.history ?? [])];
  transcript.push({ role: 'user', text: options.task });
  const turns: AgentTurn[] = [];
  const results: ToolCallResult[] = [];
  const usage = { inputTokens: 0, outputTokens: 0 };
  let status: AgentStatus = 'max_iterations';
  let error: unknown;
  let iterations = 0;
  try {
    wiring = wire(source?.registry ?? options.tools);
    for (let iteration = 0; iteration < settings.maxIterations; iteration += 1) {
      if (iteration > 0 && source !== null) await refreshTools(source, iteration);
      const turn = await modelTurn(iteration);
      if (turn.outcome === 'failed') {
        status = CancelledError.isInstance(turn.error) ? 'cancelled' : 'failed';
        error = turn.error;
        break;
      }
      iterations += 1;
      if (signal?.aborted) {
        status = 'cancelled';
        error = turnCancellationOf(signal.reason);
        break;
      }
      if (interrupt?.aborted) {
        status = 'cancelled';
        error = turnCancellationOf(interrupt.reason, 'the run was interrupted');
        break;
      }
      const waiting = waitingOn(turn);
      if (waiting !== null) {
        status = waiting;
        break;
      }
      // A paused turn is already in the transcript as it came: the next request lets the model
      // carry on with it.
      if (turn.finish?.paused === true) continue;
      if (turn.results.length === 0 && turn.retracted.length === 0) {
        if (settings.loopUntilDone === null) {
          status = 'completed';
          break;
        }
        if (settings.loopUntilDone(turn)) {
          status = 'done';
          break;
        }
        transcript.push({ role: 'user', text: CONTINUE_NUDGE });
      } else if (settings.loopUntilDone?.(turn)) {
        status = 'done';
        break;
      }
    }
  } finally {
    wiring?.subscription?.unsubscribe();
    await session?.stop();
  }
  const inDoubt = inDoubtOf(journal, results, runId);
  // A run with a call that may or may not have taken effect is never reported as done.
  if (inDoubt.length > 0 && (status === 'completed' || status === 'done')) status = 'in_doubt';
  return {
    status,
    text: turns.findLast((turn) => turn.outcome === 'completed')?.text ?? '',
    transcript,
    results,
    turns,
    usage,
    iterations,
    ...(error === undefined ? {} : { error }),
    runId,
    pendingApprovals: journal?.pendingApprovals() ?? [],
    inDoubt,
    replayed: journal?.replayed ?? { modelTurns: 0, toolCalls: 0 },
  };

  /** Between turns: the tool source's tools, again when they changed, for the next turn. */
  async function refreshTools(opened: OpenToolSource, iteration: number): Promise<void> {
    let tools: ToolRegistry | null;
    try {
      tools = await opened.refreshed();
    } catch (error) {
      // The old tools stay: their calls reconnect, and the next turn asks again.
      onEvent?.({ type: 'tools_refreshed', iteration, tools: [], error });
      return;
    }
    if (tools === null) return;
    wiring?.subscription?.unsubscribe();
    wiring = wire(tools);
    const names = tools.names().filter((name) => !options.tools.has(name));
    onEvent?.({ type: 'tools_refreshed', iteration, tools: names });
  }

  /** One model turn, retried while it fails transiently; its messages join the transcript. */
  async function modelTurn(iteration: number): Promise<AgentTurn> {
    for (let attempt = 0; ; attempt += 1) {
      onEvent?.({ type: 'turn_started', iteration, attempt });
      const turn = await streamOnce(iteration);
      turns.push(turn);
      results.push(...turn.results);
      if (turn.usage !== null) {
        usage.inputTokens += turn.usage.inputTokens;
        usage.outputTokens += turn.usage.outputTokens;
      }
      onEvent?.({ type: 'turn_finished', turn });
      const retry = turn.outcome === 'failed' && attempt < settings.maxModelRetries;
      if (!retry || !ModelError.isInstance(turn.error) || !turn.error.retryable) return turn;
      const delayMs = settings.retryDelayMs * 2 ** attempt;
      onEvent?.({
        type: 'model_retry',
        iteration,
        attempt: attempt + 1,
        delayMs,
        error: turn.error,
      });
      try {
        await (options.sleep ?? timerSleep)(delayMs, signal);
      } catch (reason) {
        return { ...turn, error: turnCancellationOf(reason) };
      }
    }
  }

  async function streamOnce(iteration: number): Promise<AgentTurn> {
    const { tools, searchView, registry, dispatcher } = wiring as Wiring;
    const definitions =
      searchView === null ? tools.modelDefinitions() : await searchView.definitions();
    const native = searchView?.native;
    // The model request stops on either: a graceful interrupt stops asking the model at once.
    const requestLink = interrupt === undefined ? null : new AbortLink([signal, interrupt]);
    const request = () =>
      opened(() =>
        model.stream({
          system: searchView === null ? options.system : searchView.system(options.system),
          messages: [...transcript],
          tools: definitions,
          ...(native === undefined ? {} : { toolSearch: native }),
          signal: requestLink === null ? signal : requestLink.signal,
        }),
      );
    const streamed = await dispatchStreamedTurn({
      deltas: journal === undefined ? request() : journal.modelTurn(iteration, request),
      toolCalling: model.toolCalling,
      dispatcher,
      maxConcurrentTools: options.maxConcurrentTools,
      signal,
      interrupt,
      interruptGraceMs: options.interruptGraceMs,
      journal: callJournal,
      eager: options.eager,
      // With provider-side search, every deferred tool may be loaded and called within the turn.
      advertised: new Set(
        [...definitions, ...(native?.deferred ?? [])].map((definition) => definition.canonicalName),
      ),
      turn: { iteration, sessionId, runId, model: model.model, provider: model.provider },
      onDetectorEvent: onEvent,
    }).finally(() => requestLink?.dispose());
    if (streamed.outcome === 'completed') {
      if (streamed.providerContent !== null) searchView?.recorded?.(streamed.providerContent);
      transcript.push(assistantMessage(streamed, registry, model.toolCalling));
      const answers = toolResultsMessage(streamed);
      if (answers !== null) transcript.push(answers);
    }
    return agentTurn(iteration, streamed, DONE_MARKER);
  }
}

interface Wiring {
  readonly tools: ToolRegistry;
  readonly searchView: ToolSearchView | null;
  readonly registry: ToolRegistry;
  readonly dispatcher: Dispatcher;
  readonly subscription: { unsubscribe(): void } | undefined;
}

function callerOf(
  session: SessionActor | null,
  toolCaller: ToolCaller | undefined,
): ToolCaller | undefined {
  const layers: ToolCaller[] = [];
  if (session !== null) layers.push(withLoopGuard(session));
  if (toolCaller !== undefined) layers.push(toolCaller);
  return layers.length === 0 ? undefined : composeToolCallers(layers);
}

/** The model's stream; a model that throws before streaming fails the turn like one that fails mid-way. */
function opened(open: () => AsyncIterable<ToolCallDelta>): AsyncIterable<ToolCallDelta> {
  try {
    return open();
  } catch (error) {
    return { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }) };
  }
}
