/**
 * Eager dispatch, measured: the scripted model streams 8 calls 50 ms apart, each tool takes
 * 100 ms, `maxConcurrentTools` 2. The time from the model's last byte to the last result, with
 * calls started as they complete (eager) against calls started when the response has ended
 * (the baseline, measured in the same run). Target: eager cuts it by at least half.
 */
import {
  createDispatcher,
  createScriptedModel,
  createToolRegistry,
  dispatchStreamedTurn,
  waitTool,
} from './switchyard.js';

const CALLS = 8;
const CALL_GAP_MS = 50;
const TOOL_MS = 100;
const ROUNDS = 7;

const dispatcher = createDispatcher({ registry: createToolRegistry([waitTool]) });

/** Milliseconds from the model's last byte to the last result of one streamed turn. */
async function tailLatency(eager: boolean): Promise<number> {
  const model = createScriptedModel({
    callDelayMs: CALL_GAP_MS,
    turns: [
      {
        toolCalls: Array.from({ length: CALLS }, () => ({
          name: 'wait',
          arguments: { ms: TOOL_MS },
        })),
      },
    ],
  });
  const turn = await dispatchStreamedTurn({
    deltas: model.stream({ messages: [], tools: [] }),
    dispatcher,
    maxConcurrentTools: 2,
    eager,
  });
  if (turn.results.length !== CALLS || turn.results.some((result) => !result.ok))
    throw new Error('a call failed');
  return turn.settledAt - turn.streamEndedAt;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Runs both modes `ROUNDS` times, interleaved, and prints the medians and their ratio. */
export async function measureEagerLatency(): Promise<void> {
  const eager: number[] = [];
  const held: number[] = [];
  await tailLatency(true);
  for (let round = 0; round < ROUNDS; round += 1) {
    held.push(await tailLatency(false));
    eager.push(await tailLatency(true));
  }
  const heldMs = median(held);
  const eagerMs = median(eager);
  console.log(
    `eager dispatch: ${CALLS} calls ${CALL_GAP_MS} ms apart, tools of ${TOOL_MS} ms, maxConcurrentTools 2 (median of ${ROUNDS})`,
  );
  console.table([
    {
      case: 'calls start when the response ends (baseline)',
      'last byte → last result (ms)': heldMs.toFixed(1),
      'x baseline': '1.00',
    },
    {
      case: 'eager: safe calls start as they complete',
      'last byte → last result (ms)': eagerMs.toFixed(1),
      'x baseline': (eagerMs / heldMs).toFixed(2),
    },
  ]);
  const cut = 1 - eagerMs / heldMs;
  console.log(
    `eager dispatch cuts the tail by ${(cut * 100).toFixed(0)}%; target ≥ 50%: ${cut >= 0.5 ? 'met' : 'MISSED'}`,
  );
}
