// One dispatch suite, run against every executor: what a tool call yields must not depend on
// where its handler runs.
import { afterAll, describe, expect, it } from 'vitest';
import { createWorkerPool, type Executor } from '../../src/executors.js';
import {
  createDispatcher,
  createToolRegistry,
  type Dispatcher,
  defineTool,
  type ToolCallEvent,
} from '../../src/index.js';
import type { AnyToolSpec, ToolExecutorSpec } from '../../src/tools/index.js';
import { echo, fail, hang, progress } from '../fixtures/workers/tools.mjs';

const handlers = { echo, fail, hang, progress };

const fixture = new URL('../fixtures/workers/tools.mjs', import.meta.url);
const pool = createWorkerPool({ maxThreads: 2 });
afterAll(() => pool.close());

function toolsRunningOn(kind: 'inline' | 'worker'): AnyToolSpec[] {
  const on = (exportName: keyof typeof handlers): Partial<AnyToolSpec> =>
    kind === 'inline'
      ? { handler: handlers[exportName] as AnyToolSpec['handler'] }
      : {
          executor: {
            kind: 'worker',
            module: fixture,
            export: exportName,
          } satisfies ToolExecutorSpec,
        };
  const base = { inputSchema: { type: 'object' }, safety: { readOnly: true } };
  return [
    { name: 'echo', description: 'echo', ...base, ...on('echo') },
    { name: 'fail', description: 'fail', ...base, ...on('fail') },
    { name: 'hang', description: 'hang', ...base, timeoutMs: 100, ...on('hang') },
    { name: 'wait_forever', description: 'hang', ...base, ...on('hang') },
    { name: 'progress', description: 'progress', ...base, ...on('progress') },
  ].map((spec) => defineTool(spec as AnyToolSpec));
}

const variants: [string, () => Dispatcher][] = [
  ['inline', () => createDispatcher({ registry: createToolRegistry(toolsRunningOn('inline')) })],
  [
    'worker',
    () =>
      createDispatcher({
        registry: createToolRegistry(toolsRunningOn('worker')),
        executors: [pool.executor as Executor],
      }),
  ],
];

describe.each(variants)('dispatch on the %s executor', (executor, make) => {
  const dispatcher = make();

  it('returns the handler value', async () => {
    const result = await dispatcher.dispatch({
      id: 'e',
      name: 'echo',
      arguments: { value: [1, { a: 'b' }] },
    });
    expect(result).toMatchObject({
      ok: true,
      status: 'ok',
      result: [1, { a: 'b' }],
      executor,
      toolCallId: 'e',
    });
  });

  it('turns a thrown error into a classified tool error, custom fields included', async () => {
    const result = await dispatcher.dispatch({
      id: 'f',
      name: 'fail',
      arguments: { message: 'busy' },
    });
    expect(result).toMatchObject({
      ok: false,
      status: 'error',
      error: 'busy',
      errorCategory: 'overloaded',
      executor,
    });
  });

  it('yields timeout for a call that outlives timeoutMs', async () => {
    const result = await dispatcher.dispatch({ id: 't', name: 'hang', arguments: {} });
    expect(result).toMatchObject({
      ok: false,
      status: 'timeout',
      errorCategory: 'timeout',
      toolCallId: 't',
    });
  });

  it('yields cancelled when the turn is cancelled while the call runs', async () => {
    const controller = new AbortController();
    const pending = dispatcher.dispatch(
      { id: 'c', name: 'wait_forever', arguments: {} },
      { signal: controller.signal },
    );
    setImmediate(() => controller.abort());
    expect(await pending).toMatchObject({ status: 'cancelled', toolCallId: 'c' });
  });

  it('refuses invalid arguments before the executor', async () => {
    const result = await dispatcher.dispatch({ id: 'v', name: 'echo', arguments: '{"value": ' });
    expect(result).toMatchObject({ status: 'schema_violation', executor: null });
  });

  it('reports progress as events', async () => {
    const seen: unknown[] = [];
    const subscription = dispatcher.events$.subscribe((event: ToolCallEvent) => {
      if (event.type === 'tool_call_progress') seen.push(event.progress);
    });
    const result = await dispatcher.dispatch({
      id: 'p',
      name: 'progress',
      arguments: { steps: 2 },
    });
    await expect.poll(() => seen.length).toBe(2);
    subscription.unsubscribe();
    expect(result.result).toBe(2);
    expect(seen).toEqual([
      { progress: 1, total: 2 },
      { progress: 2, total: 2 },
    ]);
  });
});
