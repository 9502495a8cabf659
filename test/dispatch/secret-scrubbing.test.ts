import { afterAll, describe, expect, it } from 'vitest';
import { createWorkerPool, type Executor } from '../../src/executors.js';
import {
  createDispatcher,
  createToolRegistry,
  defineTool,
  type ToolCallEvent,
} from '../../src/index.js';
import { composeToolCallers } from '../../src/middleware/compose-tool-callers.js';
import { withAuditLog } from '../../src/middleware/with-audit-log.js';
import { withTelemetry } from '../../src/middleware/with-telemetry.js';
import type { AnyToolSpec } from '../../src/tools/index.js';
import { progressSecret, returnSecret, throwSecret } from '../fixtures/workers/leaky-secrets.mjs';

// Contains a quote and a backslash, so its JSON-escaped form differs from the raw one.
const SECRET = 'sk-live-"7f3\\a9c2e1';
const MARKER = '[redacted:API_KEY]';
const handlers = { throwSecret, returnSecret, progressSecret };
const fixture = new URL('../fixtures/workers/leaky-secrets.mjs', import.meta.url);
const pool = createWorkerPool({ maxThreads: 1 });
afterAll(() => pool.close());

function tools(kind: 'inline' | 'worker') {
  return (Object.keys(handlers) as (keyof typeof handlers)[]).map((name) =>
    defineTool({
      name,
      description: name,
      inputSchema: { type: 'object' },
      safety: { readOnly: true },
      injected: ['secrets'],
      ...(kind === 'inline'
        ? { handler: handlers[name] as AnyToolSpec['handler'] }
        : { executor: { kind: 'worker', module: fixture, export: name } }),
    } as AnyToolSpec),
  );
}

function setup(kind: 'inline' | 'worker', scrubSecrets?: boolean) {
  const exported: unknown[] = [];
  const artifacts: string[] = [];
  const dispatcher = createDispatcher({
    registry: createToolRegistry(tools(kind)),
    executors: [pool.executor as Executor],
    secrets: { API_KEY: SECRET },
    maxRenderedChars: 40,
    artifactStore: { put: (_artifact, text) => void artifacts.push(text) },
    ...(scrubSecrets === undefined ? {} : { scrubSecrets }),
    caller: composeToolCallers([
      withAuditLog({ sink: (receipt) => void exported.push(receipt) }),
      withTelemetry({ sink: (span) => void exported.push(span) }),
    ]),
  });
  const events: ToolCallEvent[] = [];
  dispatcher.events$.subscribe((event) => events.push(event));
  const run = async (name: keyof typeof handlers) => {
    const result = await dispatcher.dispatch({ id: `c_${name}`, name, arguments: {} });
    await new Promise((resolve) => setImmediate(resolve));
    return { result, everything: JSON.stringify([result, events, exported, artifacts]) };
  };
  return { run };
}

const leaks = (text: string) => text.includes('7f3');

describe.each(['inline', 'worker'] as const)('secrets on the %s executor', (kind) => {
  it('scrubs a secret the tool quotes in a thrown error, everywhere', async () => {
    const { result, everything } = await setup(kind).run('throwSecret');
    expect(result.status).toBe('error');
    expect(result.error).toBe(`401 for key ${MARKER}`);
    expect(result.observation).toContain(MARKER);
    expect(leaks(everything)).toBe(false);
  });

  it('scrubs a secret the tool returns, in values, keys and JSON text', async () => {
    const { result, everything } = await setup(kind).run('returnSecret');
    expect(result.ok).toBe(true);
    expect(result.result).toEqual({
      headers: { authorization: `Bearer ${MARKER}` },
      [MARKER]: 'as a key',
      quoted: `{"key":"${MARKER}"}`,
    });
    expect(result.artifacts).toHaveLength(1);
    expect(leaks(everything)).toBe(false);
  });

  it('scrubs a secret the tool reports in a progress event', async () => {
    const { everything } = await setup(kind).run('progressSecret');
    expect(everything).toContain(`using ${MARKER}`);
    expect(leaks(everything)).toBe(false);
  });

  it('leaves tool output as produced with scrubSecrets: false', async () => {
    const { result } = await setup(kind, false).run('throwSecret');
    expect(result.error).toBe(`401 for key ${SECRET}`);
  });
});
