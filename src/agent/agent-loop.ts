import { randomUUID } from 'node:crypto';
import { createSessionActor, type SessionActor } from '../actors/session-actor.js';
import { turnCancellationOf } from '../cancellation.js';
import { sleep as timerSleep } from '../dispatch/backoff.js';
import { createDispatcher } from '../dispatch/dispatcher.js';
import type { ToolCallResult } from '../dispatch/result.js';
import type { ToolCaller } from '../dispatch/tool-caller.js';
import { CancelledError, ModelError } from '../errors.js';
import { composeToolCallers } from '../middleware/compose-tool-callers.js';
import type { TranscriptMessage } from '../providers/model-client.js';
import { dispatchStreamedTurn } from '../streams/streamed-turn.js';
import type { ToolCallDelta } from '../streams/tool-call-delta.js';
import { checkAgentOptions } from './agent-options.js';
import { assistantMessage, toolResultsMessage } from './agent-transcript.js';
import { agentTurn } from './agent-turn.js';
import type { AgentLoopOptions, AgentRun, AgentStatus, AgentTurn } from './agent-types.js';
import { DONE_MARKER } from './agent-types.js';
import { withLoopGuard } from './loop-guard.js';

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
 * @throws InvalidOptionError naming the option when an option is invalid.
 * @example
 * const run = await agentLoop({
 *   task: 'What is 17 × 23?',
 *   model: createScriptedModel({ turns: [...] }),
 *   tools: createToolRegistry(exampleTools()),
 *   maxConcurrentTools: 4,
 * });
 * run.status; // 'completed'
 */
export async function agentLoop(options: AgentLoopOptions): Promise<AgentRun> {
  const settings = checkAgentOptions(options);
  const { model, tools, signal, onEvent } = options;
  const sessionId = options.sessionId ?? `session_${randomUUID()}`;
  const runId = options.runId ?? `run_${randomUUID()}`;
  const session =
    options.loopDetection === false && options.toolSearch === undefined
      ? null
      : createSessionActor({
          sessionId,
          ...(options.loopDetection === false ? {} : { loop: options.loopDetection }),
        });
  const searchView =
    options.toolSearch === undefined || session === null
      ? null
      : options.toolSearch({ tools, model, session, emit: (event) => onEvent?.(event) });
  const registry = searchView?.registry ?? tools;
  const dispatcher = createDispatcher({
    ...options.dispatcher,
    registry,
    caller: callerOf(options.loopDetection === false ? null : session, options.toolCaller),
  });
  const subscription =
    onEvent === undefined ? undefined : dispatcher.events$.subscribe((event) => onEvent(event));
  const transcript: TranscriptMessage[] = [...(options.history ?? [])];
  transcript.push({ role: 'user', text: options.task });
  const turns: AgentTurn[] = [];
  const results: ToolCallResult[] = [];
  const usage = { inputTokens: 0, outputTokens: 0 };
  let status: AgentStatus = 'max_iterations';
  let error: unknown;
  let iterations = 0;
  try {
    for (let iteration = 0; iteration < settings.maxIterations; iteration += 1) {
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
    subscription?.unsubscribe();
    await session?.stop();
  }
  return {
    status,
    text: turns.findLast((turn) => turn.outcome === 'completed')?.text ?? '',
    transcript,
    results,
    turns,
    usage,
    iterations,
    ...(error === undefined ? {} : { error }),
  };

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
    const definitions =
      searchView === null ? tools.modelDefinitions() : await searchView.definitions();
    const native = searchView?.native;
    const streamed = await dispatchStreamedTurn({
      deltas: opened(() =>
        model.stream({
          system: searchView === null ? options.system : searchView.system(options.system),
          messages: [...transcript],
          tools: definitions,
          ...(native === undefined ? {} : { toolSearch: native }),
          signal,
        }),
      ),
      toolCalling: model.toolCalling,
      dispatcher,
      maxConcurrentTools: options.maxConcurrentTools,
      signal,
      eager: options.eager,
      // With provider-side search, every deferred tool may be loaded and called within the turn.
      advertised: new Set(
        [...definitions, ...(native?.deferred ?? [])].map((definition) => definition.canonicalName),
      ),
      turn: { iteration, sessionId, runId, model: model.model, provider: model.provider },
      onDetectorEvent: onEvent,
    });
    if (streamed.outcome === 'completed') {
      transcript.push(assistantMessage(streamed, registry, model.toolCalling));
      const answers = toolResultsMessage(streamed);
      if (answers !== null) transcript.push(answers);
    }
    return agentTurn(iteration, streamed, DONE_MARKER);
  }
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
