/**
 * The full 10-layer governance stack (audit with the local receipt log, telemetry, scope, reason,
 * consent, redaction, idempotency, timeout, rate limit, dry run) against no middleware, per call:
 * as governanceStack builds it (one compiled layer), as the same ten layers composed with
 * composeToolCallers, as the baseline build's governanceStack when BASELINE names one (see
 * bench/support/baseline.ts), and with its receipts on the results instead of in a file. Then each
 * layer alone, and one receipt of the stack through the log step by step, to show where the time
 * goes; and receipts written per second through the single-writer log, in bursts and one per turn
 * of the event loop. Targets: the stack adds at most 10 µs per call; receipts ≥ 50k per second.
 *
 * Receipts are counted in full: every task with an audit layer ends with `flush()`, which waits
 * until each receipt of its 500 calls is in the file, so the work of writing them (the group
 * commit's writes, and the wait for the last one) is inside the measured time, amortised per batch of
 * 500 as it is in a real burst, and never left to the next iteration or to the baseline.
 *
 * Run: npm run build && npx tsx bench/governance-stack.bench.ts   (BASELINE=folder, ROUNDS=n)
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { baseline } from './support/baseline.js';
import { median, printRatios } from './support/report.js';
import {
  addTool,
  composeToolCallers,
  createDispatcher,
  createToolRegistry,
  type Dispatcher,
  GENESIS_HASH,
  type GovernanceStack,
  type GovernanceStackOptions,
  governanceStack,
  LocalReceiptLog,
  receiptHash,
  type ToolCallReceipt,
  toolsUseMiddleware,
  withAuditLog,
  withConsent,
  withDryRun,
  withIdempotency,
  withRateLimit,
  withRedaction,
  withRequiredReason,
  withScopedExecutor,
  withTelemetry,
  withTimeout,
} from './support/switchyard.js';

const CALLS = 500;
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const directory = mkdtempSync(join(tmpdir(), 'switchyard-governance-'));
// Every iteration writes megabytes of receipts: remove them, also when the run fails.
process.on('exit', () => rmSync(directory, { recursive: true, force: true }));
const add = addTool;
/** The stack's options; each stack gets a receipt directory of its own. */
function layerOptions(receipts: string) {
  return {
    audit: { sink: 'local', directory: receipts },
    telemetry: 'noop',
    scope: { stage: 'bench', allowedTools: ['add'] },
    reason: true,
    consent: { prompt: () => true, options: { when: () => true } },
    redaction: () => undefined,
    idempotency: { key: (call) => call.callId },
    timeout: { maxMs: 10_000 },
    rateLimit: { maxCalls: 1e12 },
    dryRun: { except: ['add'] },
  } satisfies GovernanceStackOptions;
}
type Options = ReturnType<typeof layerOptions>;

/** The same ten layers as `governanceStack(options)`, composed with composeToolCallers. */
function composedStack(options: Options) {
  const audit = withAuditLog(options.audit);
  const reason = withRequiredReason();
  const caller = composeToolCallers([
    audit,
    withTelemetry(options.telemetry),
    withScopedExecutor(options.scope),
    reason.caller,
    withConsent(options.consent.prompt, options.consent.options),
    withRedaction(options.redaction),
    withIdempotency(options.idempotency.key),
    withTimeout(options.timeout),
    withRateLimit(options.rateLimit),
    withDryRun(options.dryRun),
  ]);
  return {
    caller,
    schemaTransform: reason.schemaTransform,
    flush: audit.flush,
    close: audit.close,
  };
}

function receiptsIn(name: string): string {
  return mkdtempSync(join(directory, `${name}-`));
}

const registry = createToolRegistry([add]);
const bare = createDispatcher({ registry });
const stack = governanceStack(layerOptions(receiptsIn('compiled')));
const composed = composedStack(layerOptions(receiptsIn('composed')));
// The same stack with its receipts on the results instead of in a file: what the local log costs.
const inMemory = governanceStack({ ...layerOptions(directory), audit: { sink: 'cloud' } });
const governed = createDispatcher({
  registry: toolsUseMiddleware(registry, stack.schemaTransform!),
  caller: stack.caller,
});
const governedComposed = createDispatcher({
  registry: toolsUseMiddleware(registry, composed.schemaTransform),
  caller: composed.caller,
});
const governedInMemory = createDispatcher({
  registry: toolsUseMiddleware(registry, inMemory.schemaTransform!),
  caller: inMemory.caller,
});
/** The baseline build's stack, when one is given. */
const earlier = (() => {
  if (baseline === undefined) return undefined;
  const { core } = baseline;
  const earlierStack = core.governanceStack(layerOptions(receiptsIn('baseline')));
  const earlierRegistry = core.createToolRegistry([core.defineTool(add)]);
  const dispatcher = core.createDispatcher({
    registry: core.toolsUseMiddleware(earlierRegistry, earlierStack.schemaTransform!),
    caller: earlierStack.caller,
  });
  return { stack: earlierStack, dispatcher: dispatcher as unknown as Dispatcher };
})();
let serial = 0;

/** 500 calls one after another, every result checked; then the receipts written. */
async function burst(dispatcher: Dispatcher, flush?: () => Promise<void>): Promise<void> {
  for (let n = 0; n < CALLS; n += 1) {
    const result = await dispatcher.dispatch(
      { id: `g${serial++}`, name: 'add', arguments: '{"a":1,"b":2,"reason":"bench"}' },
      { sessionId: 'bench' },
    );
    if (!result.ok) throw new Error(result.error ?? 'failed');
  }
  await flush?.();
}
async function bareBurst(): Promise<void> {
  for (let n = 0; n < CALLS; n += 1)
    await bare.dispatch({ id: `b${serial++}`, name: 'add', arguments: '{"a":1,"b":2}' });
}

const BASE = 'no middleware (baseline)';
const COMPILED = '10-layer governance stack (compiled), local receipts';
const COMPOSED = 'the same 10 layers composed, local receipts';
const EARLIER = 'baseline build: 10-layer governance stack, local receipts';
const IN_MEMORY = 'governance stack (compiled), receipts on the results (no file)';
const cases = new Map<string, () => Promise<void>>([
  [BASE, bareBurst],
  [COMPILED, () => burst(governed, stack.flush)],
  [COMPOSED, () => burst(governedComposed, composed.flush)],
  ...(earlier === undefined
    ? []
    : [[EARLIER, () => burst(earlier.dispatcher, earlier.stack.flush)] as const]),
  [IN_MEMORY, () => burst(governedInMemory)],
]);

const calls = new Bench({
  name: `governance stack (${CALLS} sequential calls per iteration; per call)`,
  time: 2000,
  warmup: true,
});
for (const [name, run] of cases) calls.add(name, run);
await calls.run();
const perCall = printRatios(calls, BASE, CALLS, 'µs');
const addedBy = (name: string) =>
  ((perCall.get(name) ?? Number.NaN) - (perCall.get(BASE) ?? Number.NaN)) * 1000;
const added = addedBy(COMPILED);
console.log(
  `the stack adds ${added.toFixed(1)} µs per call; target ≤ 10 µs: ${added <= 10 ? 'met' : 'MISSED'}; composed, the same layers add ${addedBy(COMPOSED).toFixed(1)} µs`,
);
console.log(
  `with its receipts on the results instead of in the local log it adds ${addedBy(IN_MEMORY).toFixed(1)} µs: the log's line (its JSON text, SHA-256 chain and write) costs ${(added - addedBy(IN_MEMORY)).toFixed(1)} µs per call`,
);

// The same comparison in CPU time (this process's user + system time), every case once per round
// in rotated order: on a shared machine wall time also measures the neighbours.
const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
async function cpuPerCall(run: () => Promise<void>): Promise<number> {
  const started = cpuMs();
  for (let repeat = 0; repeat < 20; repeat += 1) await run();
  return ((cpuMs() - started) / (20 * CALLS)) * 1000;
}
const names = [...cases.keys()].filter((name) => name !== IN_MEMORY);
const cpu = new Map<string, number[]>(names.map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round += 1) {
  const order = [...names.slice(round % names.length), ...names.slice(0, round % names.length)];
  for (const name of order) cpu.get(name)!.push(await cpuPerCall(cases.get(name)!));
}
const cpuBase = cpu.get(BASE)!;
console.log(`in CPU time (medians of ${ROUNDS} rounds, every case once per round, rotated):`);
console.table(
  names.map((name) => {
    const each = cpu.get(name)!;
    return {
      case: name,
      'µs per call': median(each).toFixed(2),
      '+ over baseline (µs)': median(each.map((value, round) => value - cpuBase[round]!)).toFixed(
        2,
      ),
      ...(name === COMPILED
        ? {}
        : {
            'x compiled stack': median(
              each.map((value, round) => value / cpu.get(COMPILED)![round]!),
            ).toFixed(2),
          }),
    };
  }),
);
await stack.close();
await composed.close();
await inMemory.close();
await earlier?.stack.close();

// Each layer alone, with the options it has in the stack. Alone, the audit layer's receipts are
// smaller (no other layer adds to the audit), so the column does not add up to the stack's figure.
const alone = new Bench({
  name: `each layer alone (${CALLS} sequential calls per iteration; per call)`,
  time: 1000,
  warmup: true,
});
alone.add(BASE, bareBurst);
const single: GovernanceStack[] = [];
const aloneOptions = layerOptions(receiptsIn('alone'));
for (const layer of Object.keys(aloneOptions) as (keyof Options)[]) {
  const options: GovernanceStackOptions = { [layer]: aloneOptions[layer] };
  const only = governanceStack(options);
  single.push(only);
  const registry = createToolRegistry([add]);
  const dispatcher = createDispatcher({
    registry: only.schemaTransform ? toolsUseMiddleware(registry, only.schemaTransform) : registry,
    caller: only.caller,
  });
  // Only the required-reason layer takes the `reason` argument off before the tool's schema.
  const args = layer === 'reason' ? '{"a":1,"b":2,"reason":"bench"}' : '{"a":1,"b":2}';
  alone.add(only.layers[0]!, async () => {
    for (let n = 0; n < CALLS; n += 1) {
      const result = await dispatcher.dispatch(
        { id: `l${serial++}`, name: 'add', arguments: args },
        { sessionId: 'bench' },
      );
      if (!result.ok) throw new Error(result.error ?? 'failed');
    }
    await only.flush();
  });
}
await alone.run();
printRatios(alone, BASE, CALLS, 'µs');
await Promise.all(single.map((only) => only.close()));

// One receipt of the full stack (its audit holds every layer's entry), step by step: its JSON text,
// then its link in the chain (SHA-256 of the previous hash and the text), then the log's whole
// work for it, written. What the local log adds to the stack per call is this last row.
let stackReceipt: ToolCallReceipt | undefined;
const capturing = governanceStack({
  ...layerOptions(directory),
  audit: {
    sink: (receipt) => {
      stackReceipt = receipt;
    },
  },
});
await createDispatcher({
  registry: toolsUseMiddleware(createToolRegistry([add]), capturing.schemaTransform!),
  caller: capturing.caller,
}).dispatch(
  { id: 'r0', name: 'add', arguments: '{"a":1,"b":2,"reason":"bench"}' },
  { sessionId: 'bench' },
);
await capturing.close();
const sample = stackReceipt!;
const sampleBytes = Buffer.byteLength(JSON.stringify(sample));
const lineLog = new LocalReceiptLog(join(directory, 'stack-receipts.jsonl'));
// JSON.rawJSON (Node 22+): a log's constant parts serialised once and spliced into each line. The
// rows below measure it against plain JSON.stringify; the text must be the same.
const { rawJSON } = JSON as unknown as { rawJSON(text: string): unknown };
const rawLogParts = {
  schema_version: rawJSON(JSON.stringify(sample.schema_version)),
  session_id: rawJSON(JSON.stringify(sample.session_id)),
  model: rawJSON(JSON.stringify(sample.model)),
  provider: rawJSON(JSON.stringify(sample.provider)),
};
if (JSON.stringify(Object.assign({}, sample, rawLogParts)) !== JSON.stringify(sample)) {
  throw new Error('JSON.rawJSON parts change the receipt text');
}
const lineSteps = new Bench({
  name: `one receipt of the stack (${sampleBytes} bytes of JSON; ${CALLS} per iteration; per receipt)`,
  time: 1000,
  warmup: true,
});
let prevHash = GENESIS_HASH;
lineSteps
  .add('JSON.stringify (baseline)', () => {
    for (let n = 0; n < CALLS; n += 1) JSON.stringify(sample);
  })
  .add('+ its link in the chain (SHA-256)', () => {
    for (let n = 0; n < CALLS; n += 1) prevHash = receiptHash(prevHash, JSON.stringify(sample));
  })
  .add('JSON.stringify, per-log parts spliced in with JSON.rawJSON', () => {
    for (let n = 0; n < CALLS; n += 1) JSON.stringify(Object.assign({}, sample, rawLogParts));
  })
  .add('JSON.stringify, per-log parts and hashes spliced in with JSON.rawJSON', () => {
    for (let n = 0; n < CALLS; n += 1) {
      JSON.stringify(
        Object.assign({}, sample, rawLogParts, {
          args_hash: rawJSON(`"${sample.args_hash}"`),
          result_hash: sample.result_hash === null ? null : rawJSON(`"${sample.result_hash}"`),
        }),
      );
    }
  })
  .add('LocalReceiptLog.record, written (flush)', async () => {
    for (let n = 0; n < CALLS; n += 1) void lineLog.record(sample);
    await lineLog.flush();
  });
await lineSteps.run();
printRatios(lineSteps, 'JSON.stringify (baseline)', CALLS, 'µs');
await lineLog.close();

const RECEIPTS = 20_000;
const receipt: ToolCallReceipt = {
  schema_version: 1,
  session_id: 'bench',
  run_id: null,
  tool_call_id: 'c',
  tool_name: 'add',
  iteration: 0,
  turn_index: null,
  emit_order: 0,
  reason: 'bench',
  kind: 'read',
  executor: 'inline',
  status: 'ok',
  error_category: null,
  duration_ms: 0.01,
  args_hash: 'a'.repeat(64),
  result_hash: 'b'.repeat(64),
  audit: { summary: 'bench' },
  emitted_at: new Date(0).toISOString(),
  model: null,
  provider: null,
};
const line = `${JSON.stringify({ ...receipt, prev_hash: '0'.repeat(64), hash: '1'.repeat(64) })}\n`;
let file = 0;
/** Outside the timing: the file an iteration wrote (~13 MB), so the disk does not fill. */
function removeIterationFile(): void {
  for (const prefix of ['raw', 'log']) {
    rmSync(join(directory, `${prefix}-${file}.jsonl`), { force: true });
  }
  file += 1;
}
const receipts = new Bench({
  name: `receipts (${RECEIPTS} per iteration; per receipt)`,
  time: 2000,
  warmup: true,
});
receipts
  .add(
    'appendFileSync per line, unchained (baseline)',
    () => {
      const path = join(directory, `raw-${file}.jsonl`);
      for (let n = 0; n < RECEIPTS; n += 1) appendFileSync(path, line);
    },
    { afterEach: removeIterationFile },
  )
  .add(
    'LocalReceiptLog: chained, single writer, concurrent appends',
    async () => {
      const log = new LocalReceiptLog(join(directory, `log-${file}.jsonl`));
      await Promise.all(
        Array.from({ length: RECEIPTS }, (_, n) =>
          log.append({ ...receipt, tool_call_id: `c${n}` }),
        ),
      );
      await log.close();
    },
    { afterEach: removeIterationFile },
  )
  .add(
    // Back-to-back calls (say over stdio) record one receipt per turn and do not wait for it:
    // while a write is in flight, the lines of the turns that follow share the next one.
    'LocalReceiptLog: one unawaited receipt per turn of the event loop',
    async () => {
      const log = new LocalReceiptLog(join(directory, `log-${file}.jsonl`));
      for (let n = 0; n < RECEIPTS; n += 1) {
        void log.record({ ...receipt, tool_call_id: `c${n}` });
        await new Promise((resolve) => setImmediate(resolve));
      }
      await log.close();
    },
    { afterEach: removeIterationFile },
  );
await receipts.run();
const perReceipt = printRatios(
  receipts,
  'appendFileSync per line, unchained (baseline)',
  RECEIPTS,
  'µs',
);
const rate =
  1e3 /
  (perReceipt.get('LocalReceiptLog: chained, single writer, concurrent appends') ?? Number.NaN);
console.log(
  `receipts written: ${Math.round(rate).toLocaleString('en')} per second; target ≥ 50,000: ${rate >= 50_000 ? 'met' : 'MISSED'}`,
);
