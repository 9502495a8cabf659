import type { JsonObject } from '../../tools/json.js';
import type {
  CandidateOpenedEvent,
  CandidatePromotedEvent,
  CandidateRetractedEvent,
  CandidateSource,
  RetractionReason,
} from '../detector-events.js';

/** Who the candidate is: the fields every candidate event starts with. */
export interface CandidateIdentity {
  readonly source: CandidateSource;
  readonly toolCallId: string;
  readonly toolName: string;
}

/** `candidate_opened`: the call started streaming. */
export function openedEvent(
  identity: CandidateIdentity,
  providerNative: boolean,
): CandidateOpenedEvent {
  const { source, toolCallId, toolName } = identity;
  return {
    type: 'candidate_opened',
    toolCallId,
    toolName,
    source,
    status: 'pending',
    parsing: true,
    providerNative,
  };
}

/** `candidate_promoted`: the call is whole; its `call` goes to the dispatcher, which decides. */
export function promotedEvent(
  identity: CandidateIdentity,
  promotion: {
    readonly args: JsonObject | string;
    readonly emitOrder: number;
    readonly rawInput: string;
  },
): CandidatePromotedEvent {
  const { source, toolCallId, toolName } = identity;
  return {
    type: 'candidate_promoted',
    toolCallId,
    toolName,
    source,
    status: 'pending',
    parsing: false,
    call: { id: toolCallId, name: toolName, arguments: promotion.args },
    emitOrder: promotion.emitOrder,
    rawInput: promotion.rawInput,
  };
}

/** `candidate_retracted`: the call will never run; `error` tells the model why. */
export function retractedEvent(
  identity: CandidateIdentity,
  retraction: {
    readonly reason: RetractionReason;
    readonly error: string;
    readonly rawInput: string;
  },
): CandidateRetractedEvent {
  const { source, toolCallId, toolName } = identity;
  return {
    type: 'candidate_retracted',
    toolCallId,
    toolName,
    source,
    status: 'failed',
    parsing: false,
    errorCategory: 'parse_aborted',
    reason: retraction.reason,
    error: retraction.error,
    rawInput: retraction.rawInput,
  };
}
