/**
 * Streaming, in two parts. First, the throughput of the streaming tool-call detectors on one long mixed response (prose, fenced
 * code, many calls with long arguments), fed in token-sized chunks of 2–24 characters, against
 * baselines measured in the same run over the same chunks: a plain line scan of every chunk,
 * and `JSON.parse` of every call's arguments. Target: ≥ 50 MB/s for each detector.
 *
 * Second, the latency eager dispatch saves (see `support/eager-latency.ts`): target ≥ 50% less
 * time from the model's last byte to the last result.
 *
 * Run: npm run bench:one bench/streaming.bench.ts
 * (MB = 10^6 characters of the response; the stream is ASCII, so characters are bytes; times
 * are CPU time of the median iteration)
 */

import {
  createNativeDetector,
  createTextDetector,
  type DetectorEvent,
  type PartialUpdateScheduler,
} from 'switchyard/detectors';
import type { ToolCallDelta } from 'switchyard/streams';
import { Bench } from 'tinybench';
import { measureEagerLatency } from './support/eager-latency.js';

const CALLS = 400;
const TOOL_NAMES = ['read_file', 'write_file', 'search', 'run'];

/** A deterministic pseudo-random sequence (mulberry32), so every run measures the same stream. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(42);
const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
const WORDS = ['the', 'file', 'reads', 'config', 'value', 'because', 'we', 'need', 'to', 'check'];

function sentence(): string {
  const words = Array.from({ length: 8 + Math.floor(next() * 10) }, () => pick(WORDS));
  return `${words.join(' ')}.`;
}

function fileBody(lines: number): string {
  return Array.from(
    { length: lines },
    (_, line) => `  const value${line} = compute("${pick(WORDS)}", ${line}); // ${sentence()}`,
  ).join('\n');
}

/** One call: its arguments as JSON, and as the text-mode model would write it. */
function call(index: number): { name: string; json: string; text: string } {
  const name = TOOL_NAMES[index % TOOL_NAMES.length]!;
  if (name === 'write_file') {
    const content = fileBody(20 + Math.floor(next() * 40));
    return {
      name,
      json: JSON.stringify({ path: `src/file${index}.ts`, content }),
      text: `<tool_call>\n${name}({ path: 'src/file${index}.ts', content: <<EOF\n${content}\nEOF\n})\n</tool_call>\n`,
    };
  }
  const args = {
    query: sentence(),
    path: `docs/page${index}.md`,
    limit: index % 50,
    exact: index % 2 === 0,
  };
  const json = JSON.stringify(args);
  return { name, json, text: `${name}(${json})\n` };
}

/** Cuts `text` into chunks of 2–24 characters, the size of streamed tokens. */
function chunks(text: string): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; ) {
    const size = 2 + Math.floor(next() * 23);
    pieces.push(text.slice(start, start + size));
    start += size;
  }
  return pieces;
}

const textChunks: string[] = [];
const deltas: ToolCallDelta[] = [];
const argumentTexts: string[] = [];
let characters = 0;
for (let index = 0; index < CALLS; index += 1) {
  const prose = `${sentence()} ${sentence()}\n${next() < 0.2 ? `\`\`\`ts\n${fileBody(6)}\n\`\`\`\n` : ''}`;
  const made = call(index);
  argumentTexts.push(made.json);
  for (const piece of chunks(prose + made.text)) textChunks.push(piece);
  for (const piece of chunks(prose)) deltas.push({ type: 'text', text: piece });
  deltas.push({ type: 'call_start', key: String(index), id: `call_${index}`, name: made.name });
  for (const piece of chunks(made.json)) {
    deltas.push({ type: 'call_arguments', key: String(index), fragment: piece });
  }
  deltas.push({ type: 'call_end', key: String(index) });
  characters += prose.length + made.json.length;
}
deltas.push({ type: 'finish', reason: 'tool_calls', safe: true });
const textCharacters = textChunks.reduce((sum, piece) => sum + piece.length, 0);

/** Virtual time: one delta per millisecond, so a 50 ms window coalesces about 50 fragments. */
class DeltaClock implements PartialUpdateScheduler {
  now = 0;
  private due: { at: number; work: () => void } | undefined;
  schedule(work: () => void, delay: number) {
    const task = { at: this.now + delay, work };
    this.due = task;
    return {
      unsubscribe: () => {
        if (this.due === task) this.due = undefined;
      },
    };
  }
  tick(): void {
    this.now += 1;
    const task = this.due;
    if (task !== undefined && task.at <= this.now) {
      this.due = undefined;
      task.work();
    }
  }
}

let sink = 0;
const count = (event: DetectorEvent) => {
  if (event.type === 'candidate_promoted') sink += 1;
};

function runNative(coalesce: boolean): void {
  const clock = new DeltaClock();
  const detector = createNativeDetector({
    toolNames: TOOL_NAMES,
    onEvent: count,
    coalesceMs: coalesce ? 50 : false,
    scheduler: clock,
  });
  for (const delta of deltas) {
    detector.push(delta);
    if (coalesce) clock.tick();
  }
  detector.end();
}

function runText(): void {
  const detector = createTextDetector({ toolNames: TOOL_NAMES, onEvent: count });
  for (const piece of textChunks) detector.pushText(piece);
  detector.end();
}

// Check the stream before timing it: every call must come out.
sink = 0;
runNative(true);
runText();
if (sink !== 2 * CALLS) throw new Error(`expected ${2 * CALLS} promotions, got ${sink}`);

/**
 * The process's CPU time, in milliseconds. The machines that run the benches are shared, and
 * wall time counts the moments another process holds the core; CPU time counts only the work.
 */
const cpuMilliseconds = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const bench = new Bench({
  name: 'streaming detectors',
  time: 1500,
  warmup: true,
  now: cpuMilliseconds,
});
bench
  .add('baseline: line scan of the text chunks', () => {
    let lines = 0;
    for (const piece of textChunks) {
      for (let at = piece.indexOf('\n'); at >= 0; at = piece.indexOf('\n', at + 1)) lines += 1;
    }
    sink += lines;
  })
  .add('baseline: JSON.parse of every call', () => {
    for (const text of argumentTexts) sink += Object.keys(JSON.parse(text) as object).length;
  })
  .add('native detector (partial updates off)', () => runNative(false))
  .add('native detector (50 ms partial updates, 1 delta/ms)', () => runNative(true))
  .add('text detector', () => runText());
await bench.run();

const sizes: Record<string, number> = {
  'baseline: line scan of the text chunks': textCharacters,
  'baseline: JSON.parse of every call': argumentTexts.reduce((sum, text) => sum + text.length, 0),
  'native detector (partial updates off)': characters,
  'native detector (50 ms partial updates, 1 delta/ms)': characters,
  'text detector': textCharacters,
};
/** MB per second of CPU time, from the median iteration (robust to the odd slow one). */
const throughput = (name: string): number => {
  const median = (bench.getTask(name)?.result as { latency?: { p50: number } } | undefined)?.latency
    ?.p50;
  return median === undefined ? Number.NaN : (sizes[name] ?? 0) / 1e6 / (median / 1e3);
};
const jsonBaseline = throughput('baseline: JSON.parse of every call');
console.log(
  `${bench.name}: ${CALLS} calls, ${(textCharacters / 1e6).toFixed(2)} MB of text in ${textChunks.length} chunks, ${(characters / 1e6).toFixed(2)} MB of native deltas in ${deltas.length} deltas`,
);
console.table(
  bench.tasks.map((task) => {
    const rate = throughput(task.name);
    return {
      case: task.name,
      'MB/s': rate.toFixed(1),
      'x JSON.parse': (rate / jsonBaseline).toFixed(2),
      'target ≥ 50 MB/s': task.name.startsWith('baseline') ? '' : rate >= 50 ? 'met' : 'MISSED',
    };
  }),
);
if (sink < 0) console.log(sink);

await measureEagerLatency();
