import type { CandidateRetractedEvent } from '../streams/detector-events.js';
import type { StreamedTurn } from '../streams/streamed-turn.js';
import type { AgentTurn, ProviderNativeRecord } from './agent-types.js';
import { withModelTokens } from './model-token-split.js';

/** The run's record of one streamed model turn. */
export function agentTurn(iteration: number, turn: StreamedTurn, doneMarker: string): AgentTurn {
  const retracted: CandidateRetractedEvent[] = [];
  const providerNative: ProviderNativeRecord[] = [];
  for (const candidate of turn.candidates) {
    if (candidate.type === 'candidate_retracted') retracted.push(candidate);
    else if (candidate.type === 'provider_native_call') {
      providerNative.push({
        executor: 'provider_native',
        toolCallId: candidate.toolCallId,
        toolName: candidate.toolName,
        input: candidate.input,
      });
    }
  }
  return {
    iteration,
    outcome: turn.outcome,
    error: turn.error,
    text: turn.prose,
    finish: turn.finish,
    usage: turn.usage,
    results: withModelTokens(turn.results, turn.usage),
    retracted,
    providerNative,
    done: turn.doneMarker !== null || turn.prose.includes(doneMarker),
    streamEndedAt: turn.streamEndedAt,
    settledAt: turn.settledAt,
  };
}
