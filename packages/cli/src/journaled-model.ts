import type { ModelClient } from 'switchyard';
import type { ModelRequest } from 'switchyard/providers';
import type { ToolCallDelta } from 'switchyard/streams';
import type { TaskJournal } from './task-journal.js';

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

/**
 * A model whose finished turns are journaled and, when the task resumes, replayed: the first
 * turns come from the journal (no request is sent, the same calls are proposed again), the rest
 * from `model`. Only a turn that streamed to its `finish` is journaled; a failed or cut-off
 * attempt is asked again. `onReplay` is told of each replayed turn.
 */
export function journaledModel(
  model: ModelClient,
  journal: TaskJournal,
  onReplay?: (index: number) => void,
): ModelClient {
  /** Turns that streamed to their end in this task so far, replayed ones included. */
  let finished = 0;
  return {
    provider: model.provider,
    model: model.model,
    toolCalling: model.toolCalling,
    async *stream(request: ModelRequest): AsyncIterable<ToolCallDelta> {
      const index = finished;
      const recorded = journal.modelTurns[index];
      if (recorded !== undefined) {
        onReplay?.(index);
        finished += 1;
        yield* recorded;
        return;
      }
      const deltas: ToolCallDelta[] = [];
      let ended = false;
      for await (const delta of model.stream(request)) {
        coalesce(deltas, delta);
        if (delta.type === 'finish') ended = true;
        yield delta;
      }
      if (!ended) return;
      journal.write({ type: 'model_turn', index, deltas });
      finished += 1;
    },
  };
}
