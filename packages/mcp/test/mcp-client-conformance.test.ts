import { describe, expect, it } from 'vitest';
import { CONFORMANCE_CLIENT, runConformance } from './conformance/run-conformance.js';

// The client leg of the official MCP conformance suite: each scenario starts its own test
// server and runs Switchyard's client against it.
describe('connectMcpServers against the MCP conformance suite', () => {
  it.each(['initialize', 'tools_call', 'sse-retry', 'elicitation-sep1034-client-defaults'])(
    'meets scenario %s (or fails it only as expected-failures.yml says)',
    async (scenario) => {
      const run = await runConformance([
        'client',
        '--command',
        `"${process.execPath}" --import tsx "${CONFORMANCE_CLIENT}"`,
        '--scenario',
        scenario,
        '--timeout',
        '15000',
      ]);
      expect(run.output).not.toMatch(/UNEXPECTED|regression|stale/i);
      expect(run.code, run.output).toBe(0);
    },
    60_000,
  );
});
