import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const suite = require.resolve('@modelcontextprotocol/conformance/dist/index.js');
/** Scenarios Switchyard fails by design, with the reasons (the suite's `--expected-failures`). */
export const EXPECTED_FAILURES = fileURLToPath(new URL('./expected-failures.yml', import.meta.url));
/** The client the client leg runs: Switchyard's `connectMcpServers` calling every tool. */
export const CONFORMANCE_CLIENT = fileURLToPath(new URL('./client.mjs', import.meta.url));

/** What one run of the suite's CLI printed, and its exit code (0: only expected failures). */
export interface ConformanceRun {
  readonly code: number | null;
  readonly output: string;
}

/** Runs the official MCP conformance suite's CLI (`conformance server …`, `conformance client …`). */
export function runConformance(args: readonly string[]): Promise<ConformanceRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [suite, ...args, '--expected-failures', EXPECTED_FAILURES],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}
