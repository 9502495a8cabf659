import type { InternalErrorCategory } from '../../src/dispatch/index.js';
import type { ModelClient } from '../../src/index.js';
import type { RecordedRequest } from './loopback-server.js';
import type { ScriptedCall } from './openai-wire-script.js';

/**
 * How a scripted turn of calls ends:
 * - `safe`: the provider's normal end (`tool_calls` / `tool_use` / `response.completed`; `stop` /
 *   `end_turn` when there are no calls);
 * - `cut_off`: an unsafe finish while the last call is still being written (`length`,
 *   `max_tokens`, `response.incomplete` with `max_output_tokens`);
 * - `held`: no finish at all; the stream stays open, sending nothing, until the client goes away;
 * - `error`: a transient error frame mid-stream in place of the finish.
 */
export type TurnFinish = 'safe' | 'cut_off' | 'held' | 'error';

/** One model response, described without a provider's words. */
export type ScriptedTurn =
  | {
      readonly type: 'calls';
      /** Streamed before the calls, when given. */
      readonly text?: string;
      readonly calls: readonly ScriptedCall[];
      readonly finish: TurnFinish;
      /** Sends nothing after the first frame that opens call `afterStartOf` until `until` settles. */
      readonly pause?: { readonly afterStartOf: string; readonly until: Promise<unknown> };
    }
  /** An HTTP 429 with the provider's rate-limit error body. */
  | { readonly type: 'rate_limited' };

/** A turn of calls (text first, when given), ending safely unless told otherwise. */
export function callsTurn(
  calls: readonly ScriptedCall[],
  options: Omit<Extract<ScriptedTurn, { type: 'calls' }>, 'type' | 'calls' | 'finish'> & {
    readonly finish?: TurnFinish;
  } = {},
): ScriptedTurn {
  return { type: 'calls', calls, finish: 'safe', ...options };
}

/** A final text answer: no calls, a safe finish. */
export function answerTurn(text: string): ScriptedTurn {
  return { type: 'calls', text, calls: [], finish: 'safe' };
}

/** A turn the provider refuses with its HTTP 429. */
export const rateLimitedTurn: ScriptedTurn = { type: 'rate_limited' };

/** A call as the loop replayed it to the model in a later request. */
export interface SentCall {
  readonly id: string;
  readonly name: string;
  /** As the provider carries them: argument text (OpenAI) or an `input` object (Anthropic). */
  readonly arguments: unknown;
}

/** A call's result as the loop sent it to the model. */
export interface SentResult {
  readonly toolCallId: string;
  readonly content: unknown;
  /** Anthropic's `is_error`; left out for providers without such a flag. */
  readonly isError?: boolean;
}

/**
 * One provider API behind a loopback wire server and the real SDK: what the provider-neutral
 * end-to-end agent suite needs to script the model and read back what the loop sent it.
 */
export interface ProviderDriver {
  /** The `provider` of the model and of its `ModelError`s. */
  readonly provider: string;
  /** The finish reason a `cut_off` turn reports, in the provider's words. */
  readonly cutOffReason: string;
  /** The category of the transient error frame that an `error` turn ends with. */
  readonly errorFrameCategory: InternalErrorCategory;
  /** Whether a result carries an error flag (`is_error`) besides its content. */
  readonly flagsErrors: boolean;
  /** A new model over the server's SDK client (which itself never retries). */
  model(): ModelClient;
  /** Queues one reply per turn, answered one per model request in order. */
  reply(...turns: ScriptedTurn[]): void;
  /** The last request the model sent. */
  lastRequest(): RecordedRequest;
  /** The calls the last request replays and the results it sends back, in order. */
  sent(): { readonly calls: SentCall[]; readonly results: SentResult[] };
  /** How a replayed call carries arguments that were not valid JSON. */
  replayOfBrokenArguments(text: string): unknown;
  close(): Promise<void>;
}

/**
 * The steps with a `waitFor` gate after the first one that opens call `pause.afterStartOf`
 * (the first whose data names its id): the calls before it are whole, the rest waits.
 */
export function paused<Step extends object>(
  steps: readonly Step[],
  turn: Extract<ScriptedTurn, { type: 'calls' }>,
): (Step | { readonly waitFor: Promise<unknown> })[] {
  const { pause } = turn;
  if (pause === undefined) return [...steps];
  const opening = steps.findIndex(
    (step) =>
      'data' in step && JSON.stringify(step.data).includes(JSON.stringify(pause.afterStartOf)),
  );
  if (opening === -1) throw new Error(`no frame opens call ${pause.afterStartOf}`);
  return [...steps.slice(0, opening + 1), { waitFor: pause.until }, ...steps.slice(opening + 1)];
}

/** The last of the recorded requests; throws when the model sent none. */
export function lastRequestOf(requests: readonly RecordedRequest[]): RecordedRequest {
  const last = requests.at(-1);
  if (last === undefined) throw new Error('the model sent no request');
  return last;
}
