import { sleep as timerSleep } from '../../dispatch/backoff.js';
import { InvalidOptionError, ModelError } from '../../errors.js';
import type { ToolCallDelta } from '../../streams/tool-call-delta.js';
import type { ModelClient, ModelRequest } from '../model-client.js';
import { abortedTurn, toModelError } from '../provider-errors.js';
import { scriptedDeltas } from './scripted-deltas.js';
import type { ScriptedReply, ScriptedTurn } from './scripted-turn.js';

/** Options of `createScriptedModel`. */
export interface ScriptedModelOptions {
  /** The replies, in order; one per model turn. */
  readonly turns: readonly ScriptedReply[];
  /** Default `scripted`. */
  readonly model?: string;
  /** Default `scripted`. */
  readonly provider?: string;
  /** `native` (default): tool-call deltas; `text`: calls written as `<tool_call>` blocks. */
  readonly toolCalling?: 'native' | 'text';
  /** Characters per argument or text fragment. Default 16. */
  readonly fragmentChars?: number;
  /** Pause before every fragment, in ms. Default 0. */
  readonly fragmentDelayMs?: number;
  /** Pause before every call opens, in ms (calls arrive this far apart). Default 0. */
  readonly callDelayMs?: number;
  /** Waits the pauses. Default: real timers that the request's signal cancels. */
  readonly sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
}

/** A model that replays scripted turns; what it was asked is kept in `requests`. */
export interface ScriptedModel extends ModelClient {
  /** Every request received, in order. */
  readonly requests: readonly ModelRequest[];
  /** Replies not used yet. */
  readonly remaining: number;
}

function nonNegative(value: number | undefined, option: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0)
    throw new InvalidOptionError(option, `createScriptedModel: ${option} must be a number ≥ 0`);
  return value;
}

/**
 * A deterministic, offline model: it replays scripted turns, streaming text and tool calls in
 * fragments with configurable timing, so an agent loop runs end to end without a provider.
 * A reply may be a function of the request (to answer from the tool results it was sent).
 * Asking for more turns than were scripted fails with a `ModelError` saying so.
 *
 * @throws InvalidOptionError naming the option when an option is invalid.
 * @example
 * const model = createScriptedModel({
 *   turns: [{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] }, { text: 'It is 3.' }],
 * });
 * const run = await agentLoop({ task: 'add 1 and 2', model, tools: registry });
 */
export function createScriptedModel(options: ScriptedModelOptions): ScriptedModel {
  if (!Array.isArray(options?.turns)) {
    throw new InvalidOptionError('turns', 'createScriptedModel: turns must be an array of replies');
  }
  const toolCalling = options.toolCalling ?? 'native';
  if (toolCalling !== 'native' && toolCalling !== 'text') {
    throw new InvalidOptionError(
      'toolCalling',
      "createScriptedModel: toolCalling must be 'native' or 'text'",
    );
  }
  const fragmentChars = nonNegative(options.fragmentChars, 'fragmentChars', 16);
  if (fragmentChars < 1 || !Number.isInteger(fragmentChars)) {
    throw new InvalidOptionError(
      'fragmentChars',
      'createScriptedModel: fragmentChars must be an integer ≥ 1',
    );
  }
  const timing = {
    fragmentChars,
    fragmentDelayMs: nonNegative(options.fragmentDelayMs, 'fragmentDelayMs', 0),
    callDelayMs: nonNegative(options.callDelayMs, 'callDelayMs', 0),
  };
  const sleep = options.sleep ?? timerSleep;
  const provider = options.provider ?? 'scripted';
  const turns = [...options.turns];
  const requests: ModelRequest[] = [];

  async function* stream(request: ModelRequest): AsyncGenerator<ToolCallDelta> {
    const index = requests.length;
    requests.push(request);
    const reply = turns[index];
    if (reply === undefined) {
      throw new ModelError(
        `${provider}: no scripted turn left (${turns.length} scripted, turn ${index + 1} asked)`,
        { provider, category: 'internal', retryable: false },
      );
    }
    const { signal } = request;
    const turn: ScriptedTurn = typeof reply === 'function' ? reply(request, index) : reply;
    let sent = 0;
    try {
      for (const step of scriptedDeltas(turn, index, toolCalling, timing)) {
        if (step.pauseMs > 0) await sleep(step.pauseMs, signal);
        if (signal?.aborted) throw abortedTurn(provider, signal);
        if (turn.failAfter !== undefined && sent >= turn.failAfter.deltas)
          throw failure(turn, provider);
        sent += 1;
        yield step.delta;
      }
    } catch (error) {
      throw toModelError(provider, error, signal);
    }
  }

  return {
    provider,
    model: options.model ?? 'scripted',
    toolCalling,
    requests,
    get remaining() {
      return Math.max(0, turns.length - requests.length);
    },
    stream,
  };
}

function failure(turn: ScriptedTurn, provider: string): unknown {
  return (
    turn.failAfter?.error ??
    new ModelError(`${provider}: the scripted stream was cut`, {
      provider,
      category: 'transient_network',
      retryable: true,
    })
  );
}
