/**
 * What `createMcpServer` answers at its trust boundary, measured on the compiled package:
 *
 * - stdio: a 10 MB request line (past the 4 MiB bound): the time from its last byte to its
 *   error answer, then a small call right after, against the same call before it (the baseline).
 * - HTTP: a 10 MB body (413), then a small call; and 1,000 2025-era sessions opened and never
 *   closed (the default 64 sessions, so each new one makes room): how many initializes were
 *   answered with a session, then a new client's call against the same call with no sessions.
 * - The server's resident memory before and after each, from /proc.
 *
 * Every call is timed as the median of ROUNDS (default 25) round trips, after as many to warm up.
 * Run: npm run build && npx tsx packages/mcp/bench/trust-boundary.ts   (SESSIONS=n to change 1,000)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';

const ROUNDS = Number(process.env.ROUNDS ?? 25);
const SESSIONS = Number(process.env.SESSIONS ?? 1000);
const serve = fileURLToPath(new URL('./support/serve-add.mjs', import.meta.url));

function rssMiB(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function medianMs(run: () => Promise<unknown>): Promise<number> {
  for (let round = 0; round < ROUNDS; round += 1) await run();
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return median(times);
}

const add = (id: string | number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'add', arguments: { a: 1, b: 2 } },
  });
const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'bench', version: '1' },
  },
});
const bigCall = (id: string) =>
  `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2,"pad":"${'x'.repeat(10 * 1024 * 1024)}"}}}`;

async function stdio(): Promise<void> {
  const child = spawn(process.execPath, [serve, 'stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map<unknown, (answer: Record<string, unknown>) => void>();
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    for (let newline = pending.indexOf('\n'); newline >= 0; newline = pending.indexOf('\n')) {
      const answer = JSON.parse(pending.slice(0, newline)) as Record<string, unknown>;
      pending = pending.slice(newline + 1);
      waiting.get(answer.id)?.(answer);
    }
  });
  const send = (line: string, id: unknown) =>
    new Promise<Record<string, unknown>>((resolve) => {
      waiting.set(id, resolve);
      child.stdin?.write(`${line}\n`);
    });
  await send(initialize, 0);
  child.stdin?.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  let next = 1;
  const before = await medianMs(() => send(add(next), next++));
  const rssBefore = rssMiB(child.pid);
  const line = bigCall('big');
  const answered = new Promise<Record<string, unknown>>((resolve) => waiting.set('big', resolve));
  await new Promise<void>((resolve) => child.stdin?.write(`${line}\n`, () => resolve()));
  const lastByte = performance.now();
  const answer = await answered;
  const answerMs = performance.now() - lastByte;
  const after = await medianMs(() => send(add(next), next++));
  console.log('stdio, 10 MB line:');
  console.log(`  answer ${JSON.stringify((answer as { error?: unknown }).error).slice(0, 90)}…`);
  console.log(`  answered ${answerMs.toFixed(1)} ms after its last byte was taken by the pipe`);
  console.log(
    `  add before ${before.toFixed(2)} ms, after ${after.toFixed(2)} ms (${(after / before).toFixed(2)}×)`,
  );
  console.log(`  server RSS ${rssBefore.toFixed(0)} → ${rssMiB(child.pid).toFixed(0)} MiB`);
  await stop(child);
}

function post(url: string, body: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; session: string | undefined }>((resolve, reject) => {
    const sent = request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          const session = response.headers['mcp-session-id'];
          resolve({
            status: response.statusCode ?? 0,
            session: typeof session === 'string' ? session : undefined,
          });
        });
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

/** A 2025-era session, initialized: the headers its requests carry. */
async function openSession(url: string): Promise<Record<string, string>> {
  const opened = await post(url, initialize);
  if (opened.session === undefined)
    throw new Error(`initialize answered ${opened.status} without a session`);
  const headers = { 'mcp-session-id': opened.session };
  await post(url, '{"jsonrpc":"2.0","method":"notifications/initialized"}', headers);
  return headers;
}

async function http(): Promise<void> {
  const child = spawn(process.execPath, [serve, 'http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
  });
  let next = 1;
  const before = await medianMs(() => post(url, add(next++)));
  const first = await openSession(url);
  const inFirst = await medianMs(() => post(url, add(next++), first));
  const rssBefore = rssMiB(child.pid);
  const start = performance.now();
  const big = await post(url, bigCall('big'));
  const bigMs = performance.now() - start;
  const afterBig = await medianMs(() => post(url, add(next++)));
  console.log('HTTP, 10 MB body:');
  console.log(
    `  ${big.status} in ${bigMs.toFixed(1)} ms; add before ${before.toFixed(2)} ms, after ${afterBig.toFixed(2)} ms (${(afterBig / before).toFixed(2)}×)`,
  );
  const opened = performance.now();
  const statuses = new Map<number, number>();
  let withSession = 0;
  for (let index = 0; index < SESSIONS; index += 1) {
    const answer = await post(url, initialize);
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    if (answer.session !== undefined) withSession += 1;
  }
  const openMs = (performance.now() - opened) / SESSIONS;
  const rssSessions = rssMiB(child.pid);
  const later = await openSession(url);
  const inSession = await medianMs(() => post(url, add(next++), later));
  console.log(`HTTP, ${SESSIONS} sessions opened and never closed:`);
  console.log(
    `  answers ${JSON.stringify(Object.fromEntries(statuses))}, ${withSession} with a session, ${openMs.toFixed(2)} ms each`,
  );
  console.log(
    `  a later client's add in its session ${inSession.toFixed(2)} ms (${(inSession / inFirst).toFixed(2)}× a session's add before the flood)`,
  );
  console.log(`  server RSS ${rssBefore.toFixed(0)} → ${rssSessions.toFixed(0)} MiB`);
  await stop(child);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

await stdio();
await http();
