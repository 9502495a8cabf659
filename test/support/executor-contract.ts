// One dispatch suite, run against every executor (inline, worker pool, queue): what a tool call
// yields must not depend on where its handler runs. The tools are `contractTools(kind)`.
import { expect, it } from 'vitest';
import type { Dispatcher, ToolCallEvent } from '../../src/index.js';

/**
 * Declares the contract's cases; `dispatcher()` is read when a case runs, so a suite may build its
 * dispatcher in `beforeAll` (after starting a server).
 */
export function executorContract(executor: string, dispatcher: () => Dispatcher): void {
  it('returns the handler value', async () => {
    const result = await dispatcher().dispatch({
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
    const result = await dispatcher().dispatch({
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
    const result = await dispatcher().dispatch({ id: 't', name: 'hang', arguments: {} });
    expect(result).toMatchObject({
      ok: false,
      status: 'timeout',
      errorCategory: 'timeout',
      toolCallId: 't',
    });
  });

  it('yields cancelled when the turn is cancelled while the call runs', async () => {
    const controller = new AbortController();
    const pending = dispatcher().dispatch(
      { id: 'c', name: 'wait_forever', arguments: {} },
      { signal: controller.signal },
    );
    setImmediate(() => controller.abort());
    expect(await pending).toMatchObject({ status: 'cancelled', toolCallId: 'c' });
  });

  it('refuses invalid arguments before the executor', async () => {
    const result = await dispatcher().dispatch({
      id: 'v',
      name: 'echo',
      arguments: '{"value": ',
    });
    expect(result).toMatchObject({ status: 'schema_violation', executor: null });
  });

  it('reports progress as events', async () => {
    const seen: unknown[] = [];
    const subscription = dispatcher().events$.subscribe((event: ToolCallEvent) => {
      if (event.type === 'tool_call_progress') seen.push(event.progress);
    });
    const result = await dispatcher().dispatch({
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
}
