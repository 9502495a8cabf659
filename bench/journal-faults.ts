/**
 * The journal's fault campaign (not run in CI): RUNS agent runs (default 1000), each with side
 * effects (orders, a payment that honours its idempotency key, a refund that needs approval), each
 * run's first process killed with SIGKILL at a random moment (mid model stream, mid call, between
 * a call's intent and its effect, between the effect and its outcome), and resumed in new
 * processes (themselves killed now and then: a kill during a resume) until it completes. Between
 * attempts the campaign acts as the operator: it decides pending approvals at random, and resolves
 * each in-doubt call by looking its effect up (done when it took effect, rerun when not).
 *
 * Checks, from the effects file every process appends to: no side effect twice; every effect the
 * run reports ok happened once, and every effect that happened is reported ok (none silently
 * dropped or repeated); every call in doubt was surfaced (a run never completes with one); every
 * approval was requested once, decided once, and applied to its own call (an approved refund took
 * effect once, a denied one never, and the run got `consent_denied`).
 *
 * STORE=file (default; the file store) or STORE=redis (the Redis store, on a redis-server this
 * starts); PROCESSES (default 1 for file, 3 for redis) runs at once, each attempt a new process.
 *
 * Run: npm run build && npx tsx bench/journal-faults.ts [runs]   (STORE=redis PROCESSES=3 …)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { readEffects, seeded } from './support/journal-fault-agent.mjs';
import { startRedisServer } from './support/queue-processes.js';
import {
  createFileJournalStore,
  decideApproval,
  type JournalStore,
  listInDoubtCalls,
  listPendingApprovals,
  resolveInDoubtCall,
} from './support/switchyard.js';
import { createRedisJournalStore } from './support/switchyard-queue.js';

const RUNS = Number(process.argv[2] ?? 1000);
const STORE = process.env.STORE === 'redis' ? 'redis' : 'file';
const PROCESSES = Number(process.env.PROCESSES ?? (STORE === 'redis' ? 3 : 1));
const MAX_ATTEMPTS = 40;
/** A resume is itself killed this often. */
const RESUME_KILL_ODDS = 0.3;
const RUNNER = fileURLToPath(new URL('./support/journal-fault-run.mjs', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'switchyard-journal-faults-'));
const effects = join(dir, 'effects.txt');
const redis = STORE === 'redis' ? await startRedisServer() : undefined;
const env: Record<string, string> =
  redis === undefined
    ? { JOURNAL_DIR: join(dir, 'journal'), EFFECTS: effects }
    : { REDIS_URL: redis.url, EFFECTS: effects };
const store: JournalStore =
  redis === undefined
    ? createFileJournalStore({ directory: join(dir, 'journal') })
    : createRedisJournalStore({ connection: redis.url });

interface Final {
  readonly status: string;
  readonly results: readonly {
    tool: string;
    order: number;
    status: string;
    errorCategory: string | null;
    ok: boolean;
  }[];
  readonly inDoubt: number;
  readonly pending: number;
}

/** Where a kill landed, read from the journal and the effects file after it. */
type Landing =
  | 'between calls or mid stream'
  | 'between intent and effect'
  | 'between effect and outcome';
const landings = new Map<Landing, number>();

async function landingOf(runId: string): Promise<Landing> {
  const open = new Map<string, number>();
  for (const record of (await store.read(runId)) ?? []) {
    const slot = 'key' in record && 'attempt' in record ? `${record.key}#${record.attempt}` : '';
    if (record.type === 'intent') open.set(slot, record.arguments.order as number);
    else if (record.type === 'outcome') open.delete(slot);
  }
  if (open.size === 0) return 'between calls or mid stream';
  const happened = readEffects(effects);
  const took = [...open.values()].some((order) =>
    happened.some((effect) => effect.run === runId && effect.order === order),
  );
  return took ? 'between effect and outcome' : 'between intent and effect';
}

interface RunLog {
  attempts: number;
  kills: number;
  /** The operator's decision on each approval the run asked for, by the call's order. */
  readonly decisions: Map<number, 'approved' | 'denied'>;
  /** Approvals decided more than once (one was lost and asked again). */
  redecided: number;
  inDoubt: number;
  final?: Final;
  problem?: string;
}

const logs = new Map<string, RunLog>();
/** Attempt durations (open to exit) of attempts not killed: the kill window follows them. */
const durations: number[] = [];
const windowMs = () => {
  if (durations.length === 0) return 300;
  const sorted = [...durations].sort((a, b) => a - b);
  return (sorted[sorted.length >> 1] ?? 300) * 1.2;
};

/** One process for one attempt: `killed`, the run's outcome, or an error. */
async function attempt(runId: string, kill: boolean): Promise<'killed' | Final | Error> {
  const child = spawn(process.execPath, [RUNNER], {
    env: { ...process.env, ...env, RUN_ID: runId },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let opened = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (opened === 0 && out.startsWith('open\n')) {
      opened = performance.now();
      if (kill) timer = setTimeout(() => child.kill('SIGKILL'), Math.random() * windowMs());
    }
  });
  const [code, signal] = await new Promise<[number | null, string | null]>((resolve) =>
    child.once('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
  );
  clearTimeout(timer);
  if (signal === 'SIGKILL') return 'killed';
  if (code !== 0) return new Error(`exit ${code}: ${err.slice(-2000)}`);
  durations.push(performance.now() - opened);
  const last = out.trim().split('\n').at(-1) ?? '';
  return JSON.parse(last) as Final;
}

/** Attempts run `runId` until it completes, acting as the operator between attempts. */
async function drive(runId: string): Promise<void> {
  const log: RunLog = { attempts: 0, kills: 0, decisions: new Map(), redecided: 0, inDoubt: 0 };
  logs.set(runId, log);
  const random = seeded(`${runId}:operator`);
  while (log.attempts < MAX_ATTEMPTS) {
    log.attempts += 1;
    const outcome = await attempt(runId, log.attempts === 1 || Math.random() < RESUME_KILL_ODDS);
    if (outcome === 'killed') {
      log.kills += 1;
      const landing = await landingOf(runId);
      landings.set(landing, (landings.get(landing) ?? 0) + 1);
      continue;
    }
    if (outcome instanceof Error) {
      log.problem = outcome.message;
      return;
    }
    if (outcome.status === 'completed') {
      log.final = outcome;
      return;
    }
    if (outcome.status === 'interrupted') {
      for (const pending of await listPendingApprovals(store, [runId])) {
        const order = pending.arguments.order as number;
        if (log.decisions.has(order)) log.redecided += 1;
        const decision = random() < 0.5 ? 'approved' : 'denied';
        log.decisions.set(order, decision);
        await decideApproval(store, runId, { callId: pending.callId, key: pending.key, decision });
      }
      continue;
    }
    if (outcome.status === 'in_doubt') {
      const happened = readEffects(effects);
      for (const call of await listInDoubtCalls(store, [runId])) {
        log.inDoubt += 1;
        const order = call.arguments.order as number;
        const found = happened.some(
          (effect) =>
            effect.run === runId && effect.tool === call.toolName && effect.order === order,
        );
        await resolveInDoubtCall(store, runId, {
          callId: call.callId,
          key: call.key,
          resolution: found ? 'done' : 'rerun',
        });
      }
      continue;
    }
    log.problem = `unexpected status ${outcome.status}`;
    return;
  }
  log.problem = `not done after ${MAX_ATTEMPTS} attempts`;
}

const started = performance.now();
const ids = Array.from({ length: RUNS }, (_, index) => `run-${index}`);
let next = 0;
let finished = 0;
await Promise.all(
  Array.from({ length: PROCESSES }, async () => {
    while (next < ids.length) {
      const runId = ids[next] as string;
      next += 1;
      await drive(runId);
      finished += 1;
      if (finished % 50 === 0) console.error(`${finished}/${RUNS} runs`);
    }
  }),
);

// The checks.
const happened = readEffects(effects);
const counts = new Map<string, number>();
for (const effect of happened) {
  const name = `${effect.run} ${effect.tool} ${effect.order}`;
  counts.set(name, (counts.get(name) ?? 0) + 1);
}
const twice = [...counts].filter(([, count]) => count > 1);
let droppedOrUnreported = 0;
let approvalsWrong = 0;
let approvalsLost = 0;
let completedInDoubt = 0;
const problems: string[] = [];
for (const [runId, log] of logs) {
  if (log.problem !== undefined || log.final === undefined) {
    problems.push(`${runId}: ${log.problem ?? 'no outcome'}`);
    continue;
  }
  const final = log.final;
  if (final.inDoubt > 0) completedInDoubt += 1;
  for (const tool of ['record_order', 'pay', 'refund']) {
    for (const result of final.results.filter((each) => each.tool === tool)) {
      const took = counts.get(`${runId} ${tool} ${result.order}`) ?? 0;
      if (result.ok !== (took === 1)) droppedOrUnreported += 1;
    }
  }
  const refunds = final.results.filter((each) => each.tool === 'refund');
  const decision = log.decisions.get(4);
  if (refunds.length !== 1 || decision === undefined || log.redecided > 0) approvalsLost += 1;
  else if ((decision === 'approved') !== refunds[0]!.ok) approvalsWrong += 1;
  else if (decision === 'denied' && refunds[0]!.errorCategory !== 'consent_denied')
    approvalsWrong += 1;
}
const total = (pick: (log: RunLog) => number) =>
  [...logs.values()].reduce((sum, log) => sum + pick(log), 0);
console.table({
  store: STORE,
  processes: PROCESSES,
  runs: RUNS,
  'runs completed': [...logs.values()].filter((log) => log.final !== undefined).length,
  attempts: total((log) => log.attempts),
  kills: total((log) => log.kills),
  ...Object.fromEntries([...landings].map(([landing, count]) => [`  kills ${landing}`, count])),
  'effects in the file': happened.length,
  'side effects twice': twice.length,
  'ok without its effect, or an effect not reported ok': droppedOrUnreported,
  'calls in doubt surfaced': total((log) => log.inDoubt),
  'runs completed with a call in doubt': completedInDoubt,
  'approvals decided': total((log) => log.decisions.size),
  'approvals lost (asked twice, or never answered)': approvalsLost,
  'approvals applied to the wrong call': approvalsWrong,
  'runs with a problem': problems.length,
  'wall (s)': ((performance.now() - started) / 1000).toFixed(1),
});
for (const problem of problems.slice(0, 10)) console.error(problem);
await store.close();
await redis?.stop();
const failed =
  twice.length +
  droppedOrUnreported +
  completedInDoubt +
  approvalsLost +
  approvalsWrong +
  problems.length;
process.exit(failed === 0 ? 0 : 1);
