import type { ModelClient } from 'switchyard';
import type { ModelRequest, TranscriptToolResult } from 'switchyard/providers';
import type { ScriptedCall, ScriptedTurn } from 'switchyard/testing';
import { createScriptedModel } from 'switchyard/testing';
import type { JsonObject } from 'switchyard/tools';
import { UsageError } from './errors.js';

const MULTIPLY = /\b(times|multipl\w*|product)\b|[×*]/i;
const CALL_LINE = /^call\s+(\S+)\s+(\{.*\})$/;

/**
 * The calls a task scripts, one a line: `call <tool> <JSON arguments>`, the arguments an object
 * (`{}` for none). Other lines ("call Ada about it") are text. Lets the demo drive any tools, the
 * user's included.
 *
 * @returns the calls in order, or undefined when the task scripts none.
 * @throws UsageError naming the line when its arguments are not valid JSON.
 */
export function scriptedCalls(task: string): ScriptedCall[] | undefined {
  const calls: ScriptedCall[] = [];
  for (const line of task.split('\n')) {
    const match = CALL_LINE.exec(line.trim());
    if (match === null) continue;
    const [, name = '', text = ''] = match;
    let args: JsonObject;
    try {
      args = JSON.parse(text);
    } catch (error) {
      throw new UsageError(
        `the demo model cannot read ${JSON.stringify(line)}: ${(error as Error).message}`,
      );
    }
    calls.push({ name, arguments: args });
  }
  return calls.length === 0 ? undefined : calls;
}

/**
 * The calls the demo plans for a task: those it scripts (`scriptedCalls`), else count its words,
 * hash it, and do its arithmetic.
 */
function plan(task: string): ScriptedCall[] {
  const scripted = scriptedCalls(task);
  if (scripted !== undefined) return scripted;
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

/** Roughly four characters a token, as providers' own rules of thumb have it. */
const tokensOf = (text: string) => Math.ceil(text.length / 4);

/**
 * The demo's usage: estimated from the characters it was sent (messages and tool definitions) and
 * wrote, so token counts and prices show as they would with a provider.
 */
function estimatedUsage(request: ModelRequest, turn: ScriptedTurn): ScriptedTurn['usage'] {
  return {
    inputTokens: tokensOf(JSON.stringify(request.messages) + JSON.stringify(request.tools)),
    outputTokens: tokensOf((turn.text ?? '') + JSON.stringify(turn.toolCalls ?? [])),
  };
}

/**
 * The model `switchyard agent` and `batch` use when no provider key is set: for any task it
 * calls the built-in stdlib tools (word matches, a SHA-256 on the worker pool, and the arithmetic
 * of the first two numbers in the task) while "streaming", then answers from their results. A
 * task with `call <tool> <JSON arguments>` lines makes those calls instead (`scriptedCalls`).
 * Its usage is estimated at four characters a token.
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
        turns: [{ ...turn, usage: estimatedUsage(request, turn) }],
      });
      return model.stream(request);
    },
  };
}
