import { describe, expect, it } from 'vitest';
import {
  CancelledError,
  createDispatcher,
  createToolRegistry,
  dispatchStreamedTurn,
  ModelError,
} from '../../src/index.js';
import { isSafeToStartEarly } from '../../src/streams/index.js';
import { recordingTool } from '../../src/testing/index.js';
import { deltaFeed, flush, gatedTools } from './support.js';

const cut = () =>
  new ModelError('openai: connection reset', {
    provider: 'openai',
    category: 'transient_network',
    retryable: true,
  });

describe('dispatchStreamedTurn: eager dispatch', () => {
  it('starts a safe call as soon as it is complete, while the model still streams', async () => {
    const tools = gatedTools();
    const feed = deltaFeed();
    const turn = dispatchStreamedTurn({ deltas: feed.deltas, dispatcher: tools.dispatcher });
    feed.pushCall('0', 'read', { id: 'r0' });
    await tools.arrived('r0');
    expect(tools.started).toEqual(['r0']);
    tools.open('r0');
    feed.finish();
    const result = await turn;
    expect(result.outcome).toBe('completed');
    expect(result.results.map((r) => [r.toolCallId, r.status])).toEqual([['r0', 'ok']]);
  });

  it('holds an unsafe call until the response has ended, and still delivers planner order', async () => {
    const tools = gatedTools();
    const feed = deltaFeed();
    const turn = dispatchStreamedTurn({ deltas: feed.deltas, dispatcher: tools.dispatcher });
    feed.pushCall('0', 'write', { id: 'w0', path: 'a.txt' });
    feed.pushCall('1', 'read', { id: 'r1' });
    await tools.arrived('r1');
    await flush();
    expect(tools.started).toEqual(['r1']);
    tools.open('r1');
    await flush();
    expect(tools.started).toEqual(['r1']);
    feed.finish();
    await tools.arrived('w0');
    tools.open('w0');
    const result = await turn;
    expect(tools.started).toEqual(['r1', 'w0']);
    expect(result.results.map((r) => r.toolCallId)).toEqual(['w0', 'r1']);
    expect(result.results.map((r) => r.emitOrder)).toEqual([0, 1]);
  });

  it('holds every call with eager: false', async () => {
    const tools = gatedTools();
    const feed = deltaFeed();
    const turn = dispatchStreamedTurn({
      deltas: feed.deltas,
      dispatcher: tools.dispatcher,
      eager: false,
    });
    feed.pushCall('0', 'read', { id: 'r0' });
    await flush();
    expect(tools.started).toEqual([]);
    feed.finish();
    await tools.arrived('r0');
    tools.open('r0');
    expect((await turn).results).toHaveLength(1);
  });

  it('asks a custom eager policy about each call', async () => {
    const tools = gatedTools();
    const feed = deltaFeed();
    const asked: string[] = [];
    const turn = dispatchStreamedTurn({
      deltas: feed.deltas,
      dispatcher: tools.dispatcher,
      eager: (call, tool) => {
        asked.push(`${tool.name}:${String(call.id)}`);
        return tool.name === 'write';
      },
    });
    feed.pushCall('0', 'read', { id: 'r0' });
    feed.pushCall('1', 'write', { id: 'w1', path: 'x' });
    await tools.arrived('w1');
    expect(tools.started).toEqual(['w1']);
    expect(asked).toEqual(['read:r0', 'write:w1']);
    tools.open('w1');
    feed.finish();
    await tools.arrived('r0');
    tools.open('r0');
    await turn;
  });

  it('keeps a held keyed call ahead of a later call on the same resource', async () => {
    const tools = gatedTools();
    const feed = deltaFeed();
    // The second write is let through early by the policy, but its resource is claimed by the first.
    const turn = dispatchStreamedTurn({
      deltas: feed.deltas,
      dispatcher: tools.dispatcher,
      eager: (call) => call.id === 'w1',
    });
    feed.pushCall('0', 'write', { id: 'w0', path: 'same.txt' });
    feed.pushCall('1', 'write', { id: 'w1', path: 'same.txt' });
    await flush();
    expect(tools.started).toEqual([]);
    feed.finish();
    await tools.arrived('w0');
    await flush();
    expect(tools.started).toEqual(['w0']);
    tools.open('w0');
    await tools.arrived('w1');
    tools.open('w1');
    await turn;
    expect(tools.overlaps).toEqual([]);
  });

  it('keeps a held exclusive call a barrier for later safe calls', async () => {
    const tools = gatedTools();
    const feed = deltaFeed();
    const turn = dispatchStreamedTurn({ deltas: feed.deltas, dispatcher: tools.dispatcher });
    feed.pushCall('0', 'confirm', { id: 'c0' });
    feed.pushCall('1', 'read', { id: 'r1' });
    await flush();
    expect(tools.started).toEqual([]);
    feed.finish();
    await tools.arrived('c0');
    tools.open('c0');
    await tools.arrived('r1');
    tools.open('r1');
    await turn;
    expect(tools.started).toEqual(['c0', 'r1']);
  });
});

describe('dispatchStreamedTurn: a failed or aborted stream', () => {
  it('cancels running eager calls and never runs held ones; one result per promoted call', async () => {
    const tools = gatedTools();
    const feed = deltaFeed();
    const turn = dispatchStreamedTurn({ deltas: feed.deltas, dispatcher: tools.dispatcher });
    feed.pushCall('0', 'read', { id: 'r0' });
    feed.pushCall('1', 'write', { id: 'w1', path: 'a' });
    await tools.arrived('r0');
    const error = cut();
    feed.fail(error);
    const result = await turn;
    expect(result.outcome).toBe('failed');
    expect(result.error).toBe(error);
    expect(tools.started).toEqual(['r0']);
    expect(result.results.map((r) => [r.toolCallId, r.status])).toEqual([
      ['r0', 'cancelled'],
      ['w1', 'cancelled'],
    ]);
    expect(result.results[1]?.error).toContain('the model turn failed');
  });

  it('keeps the results of eager calls that finished before the failure', async () => {
    const tools = gatedTools();
    const feed = deltaFeed();
    const turn = dispatchStreamedTurn({ deltas: feed.deltas, dispatcher: tools.dispatcher });
    feed.pushCall('0', 'read', { id: 'r0' });
    await tools.arrived('r0');
    tools.open('r0', 'done');
    await flush();
    feed.fail(cut());
    const result = await turn;
    expect(result.results.map((r) => r.status)).toEqual(['ok']);
  });

  it('ends as failed with a CancelledError when the turn signal aborts mid-stream', async () => {
    const tools = gatedTools();
    const feed = deltaFeed();
    const controller = new AbortController();
    const turn = dispatchStreamedTurn({
      deltas: feed.deltas,
      dispatcher: tools.dispatcher,
      signal: controller.signal,
    });
    feed.pushCall('0', 'read', { id: 'r0' });
    await tools.arrived('r0');
    controller.abort();
    // A provider stream ends silently on abort; the turn still reports the cancellation.
    feed.finish();
    const result = await turn;
    expect(result.outcome).toBe('failed');
    expect(CancelledError.isInstance(result.error)).toBe(true);
    expect(result.results.map((r) => r.status)).toEqual(['cancelled']);
  });

  it('retracts a call cut off mid-arguments and never dispatches it', async () => {
    const tools = gatedTools();
    const feed = deltaFeed();
    const turn = dispatchStreamedTurn({ deltas: feed.deltas, dispatcher: tools.dispatcher });
    feed.push(
      { type: 'call_start', key: '0', id: 'w0', name: 'write' },
      { type: 'call_arguments', key: '0', fragment: '{"id":"w0","pa' },
    );
    feed.finish('length', false);
    const result = await turn;
    expect(result.results).toEqual([]);
    expect(result.candidates.map((c) => [c.type, c.toolCallId])).toEqual([
      ['candidate_retracted', 'w0'],
    ]);
    expect(tools.started).toEqual([]);
  });
});

describe('dispatchStreamedTurn: what the turn records', () => {
  it('records text, finish, usage and every candidate in the order it opened', async () => {
    const read = recordingTool({ name: 'read' });
    const dispatcher = createDispatcher({ registry: createToolRegistry([read.tool]) });
    const feed = deltaFeed();
    const events: string[] = [];
    const turn = dispatchStreamedTurn({
      deltas: feed.deltas,
      dispatcher,
      coalesceMs: false,
      onDetectorEvent: (event) => events.push(event.type),
    });
    feed.push(
      { type: 'text', text: 'Looking.' },
      { type: 'call_start', key: 'a', id: 'x0', name: 'nope' },
      { type: 'call_start', key: 'b', id: 'x1', name: 'read' },
      { type: 'call_arguments', key: 'b', fragment: '{"q":1}' },
      { type: 'call_end', key: 'b' },
      { type: 'call_start', key: 'c', id: 'x2', name: 'web_search', providerNative: true },
      { type: 'call_end', key: 'c', arguments: '{"query":"q"}' },
      { type: 'usage', inputTokens: 3, outputTokens: 5 },
    );
    feed.finish();
    const result = await turn;
    expect(result.text).toBe('Looking.');
    expect(result.prose).toBe('Looking.');
    expect(result.finish).toEqual({ reason: 'tool_calls', safe: true });
    expect(result.usage).toEqual({ inputTokens: 3, outputTokens: 5 });
    expect(result.candidates.map((c) => [c.type, c.toolCallId])).toEqual([
      ['candidate_promoted', 'x0'],
      ['candidate_promoted', 'x1'],
      ['provider_native_call', 'x2'],
    ]);
    expect(result.results.map((r) => [r.toolCallId, r.status])).toEqual([
      ['x0', 'tool_not_found'],
      ['x1', 'ok'],
    ]);
    expect(read.calls.map((c) => c.args)).toEqual([{ q: 1 }]);
    expect(events).toContain('candidate_promoted');
    expect(result.streamEndedAt).toBeLessThanOrEqual(result.settledAt);
  });

  it('reads text-mode calls from the text', async () => {
    const read = recordingTool({ name: 'read' });
    const dispatcher = createDispatcher({ registry: createToolRegistry([read.tool]) });
    const feed = deltaFeed();
    const turn = dispatchStreamedTurn({ deltas: feed.deltas, dispatcher, toolCalling: 'text' });
    feed.push(
      { type: 'text', text: 'Let me look.\n<tool_call>read({"path": "a.md"})</tool_call>\n' },
      { type: 'text', text: '<done>##DONE##</done>\n' },
    );
    feed.finish('stop');
    const result = await turn;
    expect(result.results.map((r) => r.arguments)).toEqual([{ path: 'a.md' }]);
    expect(result.doneMarker).toBe('##DONE##');
    expect(result.text).toContain('<tool_call>');
    expect(result.prose).not.toContain('<tool_call>');
  });
});

describe('isSafeToStartEarly', () => {
  const tool = (safety: object, extra: object = {}) =>
    recordingTool({ name: 't', safety, ...extra }).tool;
  it.each([
    ['read-only', { readOnly: true }, {}, true],
    ['idempotent, not destructive', { idempotent: true, destructive: false }, {}, true],
    ['idempotent but destructive', { idempotent: true }, {}, false],
    ['a writer', { sideEffectLevel: 'workspace_write' }, {}, false],
    ['needing confirmation', { readOnly: true, requiresConfirmation: true }, {}, false],
    ['spending money', { readOnly: true, spend: true }, {}, false],
    ['deferred', { readOnly: true }, { deferLoading: true }, false],
  ])('is %s → %s', (_label, safety, extra, expected) => {
    expect(isSafeToStartEarly({ name: 't' }, tool(safety, extra))).toBe(expected);
  });
});
