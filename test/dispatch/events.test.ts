import { describe, expect, it } from 'vitest';
import { mergeAudit } from '../../src/dispatch/audit.js';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import type { ToolCallEvent, ToolCallFinishedEvent } from '../../src/dispatch/events.js';
import { shortCircuitResult } from '../../src/dispatch/result.js';
import { composeToolCallers } from '../../src/middleware/compose-tool-callers.js';
import { deferred } from '../../src/testing/deferred.js';
import { recordingTool } from '../../src/testing/recording-tool.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import { manualClock } from '../support/manual-clock.js';
import { recordEvents } from './support.js';

function finished(events: ToolCallEvent[]): ToolCallFinishedEvent {
  const last = events.filter(
    (event): event is ToolCallFinishedEvent =>
      event.type === 'tool_call_update' && event.status !== 'in_progress',
  );
  expect(last).toHaveLength(1);
  return last[0]!;
}

describe('lifecycle events', () => {
  it('goes pending, in_progress, completed with ids, kind, title, executor and durations', async () => {
    const clock = manualClock(1000);
    const tool = recordingTool({ name: 'read_file', title: 'Read a file' }).respondsWith(() => {
      clock.advance(7);
      return 'contents';
    });
    const dispatcher = createDispatcher({
      registry: createToolRegistry([tool.tool]),
      now: clock.now,
      wallClock: () => 1_700_000_000_000 + clock.now(),
    });
    const events = recordEvents(dispatcher);
    await dispatcher.dispatch(
      { id: 'c1', name: 'read_file', arguments: '{"path":"a"}' },
      { sessionId: 's1', emitOrder: 2 },
    );
    expect(events.map((event) => [event.type, 'status' in event ? event.status : null])).toEqual([
      ['tool_call', 'pending'],
      ['tool_call_update', 'in_progress'],
      ['tool_call_update', 'completed'],
    ]);
    for (const event of events) {
      expect(event).toMatchObject({
        toolCallId: 'c1',
        toolName: 'read_file',
        emitOrder: 2,
        sessionId: 's1',
      });
    }
    // Stamped by the wall clock given: before the handler's 7 ms, and after them.
    expect(events.map((event) => event.at - 1_700_000_000_000)).toEqual([1000, 1000, 1007]);
    expect(events[0]).toMatchObject({
      kind: 'read',
      title: 'Read a file',
      rawInput: '{"path":"a"}',
    });
    expect(finished(events)).toMatchObject({
      resultStatus: 'ok',
      errorCategory: null,
      error: null,
      executor: 'inline',
      durationMs: 7,
      executionDurationMs: 7,
      rawOutput: 'contents',
    });
  });

  it.each([
    ['unknown tool', { name: 'nope', arguments: {} }, 'tool_not_found', 'schema_validation', null],
    [
      'schema violation',
      { name: 'strict', arguments: { n: 'x' } },
      'schema_violation',
      'schema_validation',
      null,
    ],
    ['thrown error', { name: 'thrower', arguments: {} }, 'error', 'tool_error', expect.any(Number)],
    ['transient error', { name: 'busy', arguments: {} }, 'error', 'network', expect.any(Number)],
  ])(
    'reports a failed %s with a wire errorCategory and an execution time only if it ran',
    async (_label, call, status, wire, ran) => {
      const registry = createToolRegistry([
        recordingTool({
          name: 'strict',
          inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
        }).tool,
        recordingTool({ name: 'thrower' }).throws(new Error('bad')).tool,
        recordingTool({ name: 'busy' }).throws(Object.assign(new Error('busy'), { status: 503 }))
          .tool,
      ]);
      const dispatcher = createDispatcher({ registry });
      const events = recordEvents(dispatcher);
      await dispatcher.dispatch({ id: 'c1', ...call });
      expect(finished(events)).toMatchObject({
        status: 'failed',
        resultStatus: status,
        errorCategory: wire,
        // A call refused before it ran has no execution time.
        executionDurationMs: ran,
      });
    },
  );

  it('reports an unknown tool with kind other and its name as title', async () => {
    const dispatcher = createDispatcher({ registry: createToolRegistry() });
    const events = recordEvents(dispatcher);
    await dispatcher.dispatch({ id: 'c1', name: 'ghost' });
    expect(events[0]).toMatchObject({ type: 'tool_call', kind: 'other', title: 'ghost' });
    expect(finished(events)).toMatchObject({ executor: null, executionDurationMs: null });
  });

  it('reports a cancelled call as failed with category cancelled', async () => {
    const dispatcher = createDispatcher({
      registry: createToolRegistry([recordingTool({ name: 't' }).tool]),
    });
    const events = recordEvents(dispatcher);
    await dispatcher.dispatch(
      { id: 'c1', name: 't', arguments: {} },
      { signal: AbortSignal.abort() },
    );
    expect(finished(events)).toMatchObject({ status: 'failed', errorCategory: 'cancelled' });
  });

  it('maps a middleware status word onto the wire enum', async () => {
    const dispatcher = createDispatcher({
      registry: createToolRegistry([recordingTool({ name: 't' }).tool]),
      caller: composeToolCallers([
        async (call) => shortCircuitResult(call, { status: 'consent_denied' }),
      ]),
    });
    const events = recordEvents(dispatcher);
    await dispatcher.dispatch({ id: 'c1', name: 't', arguments: {} });
    expect(finished(events)).toMatchObject({
      resultStatus: 'consent_denied',
      errorCategory: 'permission_denied',
    });
  });

  it('emits tool_call_audit only when a layer attached audit, before the final update', async () => {
    const tool = recordingTool({ name: 't' });
    const auditing = composeToolCallers([
      async function audited(call, next) {
        const result = await next(call);
        return call.toolArgs.audit === true
          ? {
              ...result,
              audit: mergeAudit(result.audit, { layers: [{ name: 'audited', status: 'ok' }] }),
            }
          : result;
      },
    ]);
    const dispatcher = createDispatcher({
      registry: createToolRegistry([tool.tool]),
      caller: auditing,
    });
    const events = recordEvents(dispatcher);
    await dispatcher.dispatch({ id: 'plain', name: 't', arguments: { audit: false } });
    expect(events.some((event) => event.type === 'tool_call_audit')).toBe(false);
    await dispatcher.dispatch({ id: 'audited', name: 't', arguments: { audit: true } });
    const types = events
      .filter((event) => event.toolCallId === 'audited')
      .map((event) => event.type);
    expect(types).toEqual(['tool_call', 'tool_call_update', 'tool_call_audit', 'tool_call_update']);
    const audit = events.find((event) => event.type === 'tool_call_audit');
    expect(audit).toMatchObject({ audit: { layers: [{ name: 'audited', status: 'ok' }] } });
  });

  it('emits tool_call_progress from runtime.emit while the tool runs', async () => {
    const gate = deferred();
    const tool = recordingTool({ name: 'long' }).respondsWith(async ({ runtime }) => {
      runtime.emit({ message: 'halfway', progress: 1, total: 2 });
      await gate.promise;
      return 'done';
    });
    const dispatcher = createDispatcher({ registry: createToolRegistry([tool.tool]) });
    const events = recordEvents(dispatcher);
    const pending = dispatcher.dispatch({ id: 'c1', name: 'long', arguments: {} });
    await tool.nextCall();
    expect(events.at(-1)).toMatchObject({
      type: 'tool_call_progress',
      toolCallId: 'c1',
      progress: { message: 'halfway', progress: 1, total: 2 },
    });
    gate.resolve();
    await pending;
    expect(events.at(-1)).toMatchObject({ type: 'tool_call_update', status: 'completed' });
  });

  it('gives each call exactly one final update', async () => {
    const tool = recordingTool({ name: 't' });
    const dispatcher = createDispatcher({ registry: createToolRegistry([tool.tool]) });
    const events = recordEvents(dispatcher);
    await Promise.all(
      ['a', 'b', 'c'].map((id) => dispatcher.dispatch({ id, name: 't', arguments: {} })),
    );
    for (const id of ['a', 'b', 'c']) {
      finished(events.filter((event) => event.toolCallId === id));
    }
  });
});
