/**
 * Per-call overhead of an MCP tool call through Switchyard — no middleware, and with the
 * governance stack (local receipts, telemetry, scope, consent, redaction, idempotency, timeout,
 * rate limit) — against the raw SDK client calling the same reference server (`get-sum` of
 * `@modelcontextprotocol/server-everything`), over stdio and Streamable HTTP, in one run.
 * Target: ≤ 1.1× the raw client without middleware.
 *
 * Run: npm run bench:one bench/mcp.bench.ts
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Bench } from 'tinybench';
import { meanMs } from './support/report.js';
import { createDispatcher, type Dispatcher, governanceStack } from './support/switchyard.js';
import {
  connectMcpServers,
  type McpClients,
  type McpServerConfig,
} from './support/switchyard-mcp.js';

const everything = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const directory = mkdtempSync(join(tmpdir(), 'switchyard-mcp-bench-'));
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(directory, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        resolve(typeof address === 'object' && address !== null ? address.port : 0),
      );
    });
  });
}

async function startHttpServer(): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, [everything, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  await new Promise<void>((resolve) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
  });
  return `http://127.0.0.1:${port}/mcp`;
}

async function rawClient(transport: 'stdio' | 'http', url: string): Promise<Client> {
  const client = new Client({ name: 'raw', version: '1' });
  await client.connect(
    transport === 'stdio'
      ? new StdioClientTransport({
          command: process.execPath,
          args: [everything, 'stdio'],
          stderr: 'pipe',
        })
      : new StreamableHTTPClientTransport(new URL(url)),
  );
  return client;
}

const stack = governanceStack({
  audit: { sink: 'local', directory },
  telemetry: 'noop',
  scope: { stage: 'bench', allowedTools: ['everything__get-sum'] },
  consent: { prompt: () => true, options: { when: () => true } },
  redaction: () => undefined,
  idempotency: { key: (call) => call.callId },
  timeout: { maxMs: 10_000 },
  rateLimit: { maxCalls: 1e12 },
});

const url = await startHttpServer();
const sides: Record<
  string,
  { raw: Client; mcp: McpClients; bare: Dispatcher; governed: Dispatcher }
> = {};
for (const transport of ['stdio', 'http'] as const) {
  const config: McpServerConfig =
    transport === 'stdio'
      ? { name: 'everything', transport, command: process.execPath, args: [everything, 'stdio'] }
      : { name: 'everything', transport, url };
  const mcp = await connectMcpServers([config]);
  sides[transport] = {
    raw: await rawClient(transport, url),
    mcp,
    bare: createDispatcher({ registry: mcp.registry, executors: [mcp.executor] }),
    governed: createDispatcher({
      registry: mcp.registry,
      executors: [mcp.executor],
      caller: stack.caller,
    }),
  };
}

let serial = 0;
const calls = { stdio: 50, http: 10 } as const;
type Case = readonly [name: string, transport: 'stdio' | 'http', run: () => Promise<void>];
const cases: Case[] = [];
for (const transport of ['stdio', 'http'] as const) {
  const side = sides[transport];
  if (side === undefined) continue;
  const count = calls[transport];
  cases.push(
    [
      `${transport}: raw SDK client (baseline)`,
      transport,
      async () => {
        for (let n = 0; n < count; n += 1) {
          const answer = await side.raw.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } });
          if (answer.isError === true) throw new Error('raw call failed');
        }
      },
    ],
    [
      `${transport}: Switchyard, no middleware`,
      transport,
      async () => {
        for (let n = 0; n < count; n += 1) {
          const result = await side.bare.dispatch({
            id: `b${serial++}`,
            name: 'everything__get-sum',
            arguments: '{"a":1,"b":2}',
          });
          if (!result.ok) throw new Error(result.error ?? 'failed');
        }
      },
    ],
    [
      `${transport}: Switchyard, governance stack`,
      transport,
      async () => {
        for (let n = 0; n < count; n += 1) {
          const result = await side.governed.dispatch(
            { id: `g${serial++}`, name: 'everything__get-sum', arguments: '{"a":1,"b":2}' },
            { sessionId: 'bench' },
          );
          if (!result.ok) throw new Error(result.error ?? 'failed');
        }
      },
    ],
  );
}

// Servers and the machine drift over a run: every case runs once per round, in a rotated order,
// and the table shows each case's median over the rounds.
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const samples = new Map<string, number[]>(cases.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS; round += 1) {
  const bench = new Bench({
    time: 200,
    iterations: 5,
    warmupTime: 100,
    warmupIterations: 2,
    warmup: round === 0,
  });
  const order = [...cases.slice(round % cases.length), ...cases.slice(0, round % cases.length)];
  for (const [name, , run] of order) bench.add(name, run);
  await bench.run();
  for (const [name, transport] of cases) {
    samples.get(name)?.push((meanMs(bench, name) / calls[transport]) * 1000);
  }
}
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const perCall = (name: string) => median(samples.get(name) ?? []);
console.log(`MCP get-sum (everything reference server), per call; median of ${ROUNDS} rounds`);
for (const transport of ['stdio', 'http'] as const) {
  const base = perCall(`${transport}: raw SDK client (baseline)`);
  console.table(
    cases
      .filter(([, caseTransport]) => caseTransport === transport)
      .map(([name]) => ({
        case: name,
        'per call (µs)': perCall(name).toFixed(1),
        '+ over raw (µs)': (perCall(name) - base).toFixed(1),
        'x raw': (perCall(name) / base).toFixed(3),
        'rounds (µs)': (samples.get(name) ?? []).map((value) => value.toFixed(0)).join(' '),
      })),
  );
  const ratio = perCall(`${transport}: Switchyard, no middleware`) / base;
  console.log(
    `${transport}: Switchyard without middleware is ${ratio.toFixed(3)}× raw; target ≤ 1.1×: ${ratio <= 1.1 ? 'met' : 'MISSED'}`,
  );
}
for (const side of Object.values(sides)) {
  await side.raw.close();
  await side.mcp.close();
}
await stack.close();
process.exit(0);
