import type { ProposedCall } from '../dispatch/proposed-call.js';
import type { JsonObject, JsonValue } from '../tools/json.js';
import type { ToolCallDelta } from './tool-call-delta.js';

/**
 * What the streaming tool-call detectors emit. The native detector (provider deltas) and the
 * text detector (`<tool_call>` / bare `name(` in prose) speak this one vocabulary, so a host
 * renders and dispatches candidates the same way whatever the model's calling style.
 *
 * A candidate's life: `candidate_opened` → zero or more `candidate_partial` → exactly one of
 * `candidate_promoted` (dispatch it) or `candidate_retracted` (never dispatch it; tell the model
 * `error`). Provider-native candidates end in `provider_native_call` instead of a promotion.
 * The `status` / `parsing` / `errorCategory` fields mirror ACP's `tool_call` and
 * `tool_call_update` so a host can forward them as they are.
 */
export type DetectorEvent =
  | CandidateOpenedEvent
  | CandidatePartialEvent
  | CandidatePromotedEvent
  | CandidateRetractedEvent
  | ProviderNativeCallEvent
  | DetectedTextEvent
  | DetectedDoneEvent;

/** Which detector saw the candidate. */
export type CandidateSource = 'native' | 'text';

/** Fields every candidate event carries. */
interface CandidateBase {
  /** Stable for the candidate's whole life and equal to the promoted call's `id`. */
  readonly toolCallId: string;
  /** The canonical tool name once known; `''` while a `<tool_call>` body is unread. */
  readonly toolName: string;
  readonly source: CandidateSource;
}

/** A call opened (ACP `tool_call`, status `pending`, `parsing: true`). */
export interface CandidateOpenedEvent extends CandidateBase {
  readonly type: 'candidate_opened';
  readonly status: 'pending';
  readonly parsing: true;
  /** The provider runs this call itself; it ends in `provider_native_call`, never a promotion. */
  readonly providerNative: boolean;
}

/** Coalesced progress of a call's arguments while they stream. */
export interface CandidatePartialEvent extends CandidateBase {
  readonly type: 'candidate_partial';
  readonly status: 'pending';
  readonly parsing: true;
  /** The argument text received so far. */
  readonly rawInputPartial: string;
  /** A best-effort parse of that text with open strings and containers closed; absent when none. */
  readonly partialInput: JsonValue | undefined;
}

/**
 * A proposed call with everything the dispatcher needs. Its arguments are parsed when they are
 * a JSON object; a native call whose arguments are not carries them as the text that came, and
 * the dispatcher refuses it (`schema_violation`, with the reason) like a call that names an
 * unknown tool (`tool_not_found`).
 */
export interface DetectedCall extends ProposedCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: JsonObject | string;
}

/** The call is complete and safe to dispatch (ACP `tool_call_update`, `parsing: false`). */
export interface CandidatePromotedEvent extends CandidateBase {
  readonly type: 'candidate_promoted';
  readonly status: 'pending';
  readonly parsing: false;
  readonly call: DetectedCall;
  /** 0-based position among this response's promoted calls, in the order the calls opened. */
  readonly emitOrder: number;
  /** The argument text as the model wrote it (JSON for native calls, the call for text mode). */
  readonly rawInput: string;
}

/**
 * Why a candidate was retracted; the model-facing text is in `error`. A native call is retracted
 * only when it was cut off: a whole one is promoted, whatever its name and arguments.
 */
export type RetractionReason =
  /** A text-mode `<tool_call>` names a tool that is neither advertised nor an accepted alias. */
  | 'unknown_tool'
  /** A text-mode call's arguments parsed, but to something other than an object. */
  | 'not_an_object'
  /** A text-mode call does not follow the call grammar. */
  | 'invalid_syntax'
  /** A `<tool_call>` body was empty. */
  | 'empty_body'
  /** A `<tool_call>` body does not start with `name(`. */
  | 'missing_name'
  /** The response finished with an unsafe reason (`length`, `content_filter`, …) mid-call. */
  | 'cut_off'
  /** The response ended (no finish, or the text ran out) before the call was complete. */
  | 'incomplete';

/** The candidate will never be dispatched (ACP `tool_call_update`, `failed`, `parse_aborted`). */
export interface CandidateRetractedEvent extends CandidateBase {
  readonly type: 'candidate_retracted';
  readonly status: 'failed';
  readonly parsing: false;
  readonly errorCategory: 'parse_aborted';
  readonly reason: RetractionReason;
  /** Model-facing: says what was wrong and how to call again. */
  readonly error: string;
  /** What was received of the call, for logs and transcripts. */
  readonly rawInput: string;
}

/** A call the provider ran itself (hosted tool search, …): recorded, never dispatched here. */
export interface ProviderNativeCallEvent extends CandidateBase {
  readonly type: 'provider_native_call';
  readonly rawInput: string;
  /** The parsed arguments, or undefined when they are not valid JSON. */
  readonly input: JsonValue | undefined;
}

/** Visible text outside tool calls. */
export interface DetectedTextEvent {
  readonly type: 'text';
  readonly text: string;
  /** `user_response` inside a text-mode `<user_response>` block; `prose` everywhere else. */
  readonly channel: 'prose' | 'user_response';
}

/** A text-mode model wrote its completion marker (`<done>##DONE##</done>`). */
export interface DetectedDoneEvent {
  readonly type: 'done';
  /** The trimmed body of the block, usually `##DONE##`. */
  readonly marker: string;
}

/** Receives every event a detector emits, synchronously and in order. */
export type DetectorListener = (event: DetectorEvent) => void;

/** What both detectors offer: feed one response's deltas, then end it. */
export interface ToolCallDetector {
  /** Feeds one delta; events go to the listener before this returns (partials may come later). */
  push(delta: ToolCallDelta): void;
  /**
   * The source stream ended. Settles every open candidate (retracts or, in text mode, applies
   * the end-of-text rules) and cancels pending partial updates. Idempotent.
   */
  end(): void;
}
