import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const server = fileURLToPath(new URL('./fixtures/serve-stdio.ts', import.meta.url));

/** A stdio MCP server in its own process, spoken to in raw bytes, as any client (or attacker) can. */
export interface StdioWire {
  readonly child: ChildProcess;
  /** Writes bytes to the server's stdin, waiting for the pipe to take them. */
  write(bytes: string): Promise<void>;
  /** The next JSON line the server writes whose `id` is `id`. */
  answer(id: string | number | null): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Starts `fixtures/serve-stdio.ts` and reads its stdout line by line. */
export function startStdioWire(): StdioWire {
  const child = spawn(process.execPath, ['--import', 'tsx', server], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const answers: Record<string, unknown>[] = [];
  const waiting: Array<() => void> = [];
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    for (let newline = pending.indexOf('\n'); newline >= 0; newline = pending.indexOf('\n')) {
      answers.push(JSON.parse(pending.slice(0, newline)) as Record<string, unknown>);
      pending = pending.slice(newline + 1);
    }
    for (const wake of waiting.splice(0)) wake();
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.once('exit', () => {
    for (const wake of waiting.splice(0)) wake();
  });
  return {
    child,
    write: (bytes) =>
      new Promise((resolve, reject) => {
        child.stdin?.write(bytes, (error) => (error ? reject(error) : resolve()));
      }),
    async answer(id) {
      for (;;) {
        const index = answers.findIndex((answer) => answer.id === id);
        if (index >= 0) return answers.splice(index, 1)[0] as Record<string, unknown>;
        if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
    },
    async close() {
      child.stdin?.end();
      await exited;
    },
  };
}

/** One JSON-RPC message as a stdio line. */
export function line(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}

/** The `initialize` request and `initialized` notification of a 2025-11-25 client. */
export const OPENING =
  line({
    jsonrpc: '2.0',
    id: 'init',
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    },
  }) + line({ jsonrpc: '2.0', method: 'notifications/initialized' });
