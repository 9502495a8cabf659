import type { ToolCallDelta } from '../streams/tool-call-delta.js';

/**
 * A model turn from the journal, or from the model and then into the journal. A replayed turn
 * yields the recorded deltas (no request is sent, so the same calls are proposed again, in the
 * same places). A streamed one is recorded only when it streamed to its `finish`, and before the
 * iterator ends: a turn cut off is asked again.
 */
export async function* replayOrRecordTurn(
  recorded: readonly ToolCallDelta[] | undefined,
  open: () => AsyncIterable<ToolCallDelta>,
  record: (deltas: ToolCallDelta[]) => Promise<void>,
): AsyncGenerator<ToolCallDelta> {
  if (recorded !== undefined) {
    yield* recorded;
    return;
  }
  const deltas: ToolCallDelta[] = [];
  let finished = false;
  for await (const delta of open()) {
    coalesce(deltas, delta);
    if (delta.type === 'finish') finished = true;
    yield delta;
  }
  if (finished) await record(deltas);
}

/** Merges runs of text and of one call's argument fragments, so a turn is journaled compactly. */
function coalesce(deltas: ToolCallDelta[], delta: ToolCallDelta): void {
  const last = deltas.at(-1);
  if (delta.type === 'text' && last?.type === 'text') {
    deltas[deltas.length - 1] = { type: 'text', text: last.text + delta.text };
    return;
  }
  if (
    delta.type === 'call_arguments' &&
    last?.type === 'call_arguments' &&
    last.key === delta.key
  ) {
    deltas[deltas.length - 1] = { ...last, fragment: last.fragment + delta.fragment };
    return;
  }
  deltas.push(delta);
}
