/**
 * Soak: a million mixed-fault calls through the 10-layer governance stack with local receipts,
 * across the inline executor and the worker pool. Calls succeed, throw, time out (inline and on
 * workers, where timing out terminates the worker), carry hostile arguments (nesting 2,500 deep,
 * unknown tools, unparseable JSON, missing fields, `__proto__` keys, 100k-character strings) or
 * kill their worker (`process.exit`, an uncaught throw). Checks one result per call in the model's
 * order, one receipt line per call and an intact hash chain, 0 lost, and resident memory flat.
 * Not a CI job: it takes minutes. Exits non-zero when a check fails.
 *
 * Run: npm run build && CALLS=1000000 npx tsx bench/soak.ts
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createDispatcher,
  createToolRegistry,
  createWorkerPool,
  defineTool,
  dispatchTurn,
  governanceStack,
  type JsonValue,
  type ProposedCall,
  toolsUseMiddleware,
  verifyReceipts,
} from './support/switchyard.js';

const TOTAL = Number(process.env.CALLS ?? 1_000_000);
const TURN = 64;
const directory = mkdtempSync(join(tmpdir(), 'switchyard-soak-'));
process.on('exit', () => rmSync(directory, { recursive: true, force: true }));

const workerModule = new URL('./support/soak-tools.mjs', import.meta.url);
const OPEN = { type: 'object', properties: { value: {} } } as const;
const inline = (name: string, handler: (args: { value?: unknown }) => unknown, extra = {}) =>
  defineTool({ name, description: name, inputSchema: OPEN, handler, ...extra });
const worker = (name: string, exportName: string, extra = {}) =>
  defineTool({
    name,
    description: name,
    inputSchema: OPEN,
    executor: { kind: 'worker', module: workerModule, export: exportName },
    ...extra,
  });
const tools = [
  inline('ok', (args) => args.value ?? null),
  inline('fail', () => {
    throw new Error('inline tool failed on purpose');
  }),
  inline('slow', () => new Promise(() => {}), { timeoutMs: 5 }),
  worker('w_ok', 'echo'),
  worker('w_fail', 'fail'),
  worker('w_hang', 'hang', { timeoutMs: 20 }),
  worker('w_crash', 'crash'),
  worker('w_uncaught', 'uncaught'),
];
const names = tools.map((tool) => tool.name);

const pool = createWorkerPool({
  maxThreads: 2,
  crashLimit: 1_000,
  crashCooldownMs: 1_000,
  maxQueueWaitMs: 60_000,
});
const stack = governanceStack({
  audit: { sink: 'local', directory },
  telemetry: 'noop',
  scope: { stage: 'soak', allowedTools: names },
  reason: true,
  consent: { prompt: () => true, options: { when: () => true } },
  redaction: () => undefined,
  idempotency: { key: (call) => call.callId },
  timeout: { maxMs: 30_000 },
  rateLimit: { maxCalls: 1e12 },
  dryRun: { except: names },
});
const dispatcher = createDispatcher({
  registry: toolsUseMiddleware(createToolRegistry(tools), stack.schemaTransform!),
  caller: stack.caller,
  executors: [pool.executor],
});

/** A small deterministic generator (mulberry32), so every run makes the same calls. */
let seed = 0x5eed;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let value = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  value ^= value + Math.imul(value ^ (value >>> 7), 61 | value);
  return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
}

function nested(depth: number): JsonValue {
  let value: JsonValue = 'bottom';
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}
const DEEP = nested(2_500);
const LONG = 'x'.repeat(100_000);

/** Kinds of call, with their share of the mix (per 100 000). */
const HOSTILE = Number(process.env.HOSTILE_SHARE ?? 12_660);
const MIX: readonly [string, number][] = [
  ['ok', 35_000],
  ['fail', 8_000],
  ['slow', 300],
  ['w_ok', 36_000],
  ['w_fail', 8_000],
  ['w_hang', 20],
  ['w_crash', 10],
  ['w_uncaught', 10],
  ['hostile', HOSTILE],
];

function hostile(id: string): ProposedCall {
  const roll = random();
  if (roll < 0.08) return { id, name: 'ok', arguments: { value: DEEP, reason: 'deep' } };
  if (roll < 0.4) return { id, name: 'no_such_tool', arguments: { reason: 'r' } };
  if (roll < 0.55) return { id, name: 'w_ok', arguments: '{"value": [1, 2' };
  if (roll < 0.7) return { id, name: 'ok', arguments: { value: 1 } }; // no reason
  if (roll < 0.85)
    return { id, name: 'w_ok', arguments: JSON.parse('{"__proto__":{"polluted":1},"reason":"p"}') };
  if (roll < 0.999)
    return { id, name: 'ok', arguments: { value: { constructor: 'x' }, reason: 'c' } };
  return { id, name: 'ok', arguments: { value: LONG, reason: 'long' } };
}

function nextCall(index: number): ProposedCall {
  const id = `c${index}`;
  let roll = random() * 100_000;
  for (const [kind, share] of MIX) {
    roll -= share;
    if (roll >= 0) continue;
    if (kind === 'hostile') return hostile(id);
    return { id, name: kind, arguments: { value: index, reason: 'soak' } };
  }
  return { id, name: 'ok', arguments: { value: index, reason: 'soak' } };
}

const statuses = new Map<string, number>();
let results = 0;
let lost = 0;
let misordered = 0;
const rss: number[] = [];
const started = Date.now();
const SAMPLE_EVERY = Math.max(1, Math.floor(TOTAL / TURN / 50));

for (let turn = 0, index = 0; index < TOTAL; turn += 1) {
  const calls: ProposedCall[] = [];
  for (let slot = 0; slot < TURN && index < TOTAL; slot += 1) calls.push(nextCall(index++));
  const turnResults = await dispatchTurn(calls, {
    dispatcher,
    maxConcurrentTools: 16,
    // A log per 100k calls: verifyReceipts reads a log whole, and a string tops out at 512 MiB.
    turn: { sessionId: `soak-${Math.floor(index / 100_000)}`, iteration: turn + 1 },
  });
  results += turnResults.length;
  lost += calls.length - turnResults.length;
  calls.forEach((call, slot) => {
    if (turnResults[slot]?.toolCallId !== call.id) misordered += 1;
  });
  for (const result of turnResults)
    statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
  if (turn % SAMPLE_EVERY === 0) {
    rss.push(process.memoryUsage().rss / 2 ** 20);
    process.stdout.write(
      `\r${index.toLocaleString('en')} calls, ${((Date.now() - started) / 1000).toFixed(0)} s, rss ${rss.at(-1)!.toFixed(0)} MiB   `,
    );
  }
}
const seconds = (Date.now() - started) / 1000;
await stack.close();
await pool.close();

const logs = readdirSync(directory).filter((name) => name.endsWith('.jsonl'));
let receipts = 0;
let chainOk = true;
for (const log of logs) {
  const verification = verifyReceipts(join(directory, log));
  receipts += verification.verifiedLines;
  chainOk &&= verification.ok;
}
// Memory after warm-up: the first tenth of the samples is the heap and the pool growing to size.
const settled = rss.slice(Math.ceil(rss.length / 10));
const early = Math.max(...settled.slice(0, Math.ceil(settled.length / 3)));
const late = Math.max(...settled.slice(-Math.ceil(settled.length / 3)));
const flat = late - early < 64;

console.log('\n');
console.table(Object.fromEntries([...statuses].sort(([, a], [, b]) => b - a)));
console.table({
  calls: TOTAL,
  results,
  receipts,
  lost,
  misordered,
  'receipt chain intact': chainOk,
  seconds: Number(seconds.toFixed(1)),
  'calls per second': Math.round(TOTAL / seconds),
  'worker crashes': pool.stats.crashes,
  'worker terminations': pool.stats.terminations,
  'rss early (MiB)': Math.round(early),
  'rss late (MiB)': Math.round(late),
  'rss max (MiB)': Math.round(Math.max(...rss)),
});
const passed =
  results === TOTAL && receipts === TOTAL && lost === 0 && misordered === 0 && chainOk && flat;
console.log(passed ? 'soak passed' : 'SOAK FAILED');
process.exitCode = passed ? 0 : 1;
