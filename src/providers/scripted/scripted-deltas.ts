import type { ToolCallDelta } from '../../streams/tool-call-delta.js';
import { isSafeFinish, type ScriptedCall, type ScriptedTurn } from './scripted-turn.js';

/** A delta and the pause before it. */
export interface ScriptedStep {
  readonly pauseMs: number;
  readonly delta: ToolCallDelta;
}

export interface ScriptedTiming {
  readonly fragmentChars: number;
  readonly fragmentDelayMs: number;
  readonly callDelayMs: number;
}

function argumentText(call: ScriptedCall): string {
  if (typeof call.arguments === 'string') return call.arguments;
  return JSON.stringify(call.arguments ?? {});
}

function* pieces(text: string, size: number): Generator<string> {
  for (let start = 0; start < text.length; start += size) yield text.slice(start, start + size);
}

/**
 * The deltas of one scripted turn, in order: the prose, then each call (opened after
 * `callDelayMs`, arguments in fragments, closed), then usage and the finish. In text mode the
 * calls are written as `<tool_call>name({...})</tool_call>` lines of text instead.
 */
export function* scriptedDeltas(
  turn: ScriptedTurn,
  turnIndex: number,
  toolCalling: 'native' | 'text',
  timing: ScriptedTiming,
): Generator<ScriptedStep> {
  const { fragmentChars, fragmentDelayMs, callDelayMs } = timing;
  const calls = turn.toolCalls ?? [];
  const reason = turn.finish ?? (calls.length > 0 ? 'tool_calls' : 'stop');
  // An unsafe finish cuts the last call off: its block never closes.
  const cutOff = (n: number) => n === calls.length - 1 && !isSafeFinish(reason);
  for (const text of pieces(turn.text ?? '', fragmentChars)) {
    yield { pauseMs: fragmentDelayMs, delta: { type: 'text', text } };
  }
  for (const [n, call] of calls.entries()) {
    const args = argumentText(call);
    if (toolCalling === 'text') {
      const whole = `${n === 0 && turn.text ? '\n' : ''}<tool_call>${call.name}(${args})</tool_call>\n`;
      const line = cutOff(n) ? whole.slice(0, Math.ceil(whole.length / 2)) : whole;
      let pause = callDelayMs;
      for (const text of pieces(line, fragmentChars)) {
        yield { pauseMs: pause + fragmentDelayMs, delta: { type: 'text', text } };
        pause = 0;
      }
      continue;
    }
    const key = String(n);
    yield {
      pauseMs: callDelayMs,
      delta: {
        type: 'call_start',
        key,
        id: call.id ?? `call_${turnIndex}_${n}`,
        name: call.name,
        ...(call.providerNative ? { providerNative: true } : {}),
      },
    };
    for (const fragment of pieces(args, fragmentChars)) {
      yield { pauseMs: fragmentDelayMs, delta: { type: 'call_arguments', key, fragment } };
    }
    if (!cutOff(n)) yield { pauseMs: 0, delta: { type: 'call_end', key } };
  }
  if (turn.usage !== undefined) yield { pauseMs: 0, delta: { type: 'usage', ...turn.usage } };
  yield { pauseMs: 0, delta: { type: 'finish', reason, safe: isSafeFinish(reason) } };
}
