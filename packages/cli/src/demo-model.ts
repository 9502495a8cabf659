import type { ModelClient } from 'switchyard';
import type { ModelRequest, TranscriptToolResult } from 'switchyard/providers';
import type { ScriptedCall, ScriptedTurn } from 'switchyard/testing';
import { createScriptedModel } from 'switchyard/testing';

const MULTIPLY = /\b(times|multipl\w*|product)\b|[×*]/i;

/** The calls the demo plans for a task: count its words, hash it, and do its arithmetic. */
function plan(task: string): ScriptedCall[] {
  const calls: ScriptedCall[] = [
    { name: 'regex_match', arguments: { pattern: '\\w+', text: task } },
    { name: 'sha256', arguments: { text: task } },
  ];
  const numbers = (task.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
  const [a, b] = numbers;
  if (a !== undefined && b !== undefined) {
    calls.push({
      name: 'math_calc',
      arguments: { expression: `(${a}) ${MULTIPLY.test(task) ? '*' : '+'} (${b})` },
    });
  }
  return calls;
}

function lastResults(request: ModelRequest): readonly TranscriptToolResult[] {
  const last = request.messages.at(-1);
  return last?.role === 'tool' ? last.results : [];
}

/** The answer turn: what each tool said, read from the results the model was sent. */
function answer(request: ModelRequest): ScriptedTurn {
  const lines = lastResults(request).map((result) => {
    const content =
      result.content.length > 160 ? `${result.content.slice(0, 160)}…` : result.content;
    return `- ${result.toolName}${result.isError ? ' (failed)' : ''}: ${content.replace(/\s+/g, ' ')}`;
  });
  return { text: `Here is what the tools found:\n${lines.join('\n')}` };
}

/**
 * The model `switchyard agent` and `batch` use when no provider key is set: for any task it
 * calls the built-in stdlib tools (word matches, a SHA-256 on the worker pool, and the arithmetic
 * of the first two numbers in the task) while "streaming", then answers from their results.
 * Deterministic, offline, and a function of the request alone (like a provider), so a resumed
 * run continues where it stopped. It shows the loop, not intelligence.
 */
export function demoModel(task: string): ModelClient {
  return {
    provider: 'scripted',
    model: 'switchyard-demo',
    toolCalling: 'native',
    stream(request) {
      const answering = request.messages.at(-1)?.role === 'tool';
      const turn: ScriptedTurn = answering
        ? answer(request)
        : { text: `Working on: ${task}\n`, toolCalls: plan(task) };
      const model = createScriptedModel({
        model: 'switchyard-demo',
        fragmentChars: 12,
        fragmentDelayMs: 2,
        turns: [turn],
      });
      return model.stream(request);
    },
  };
}
