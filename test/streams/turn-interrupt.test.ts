import { describe, expect, it } from 'vitest';
import { dispatchStreamedTurn, dispatchTurn, InvalidOptionError } from '../../src/index.js';
import { call, deltaFeed, gatedTools } from './support.js';

describe('dispatchTurn: a graceful interrupt', () => {
  it('starts no further call and lets the running ones finish', async () => {
    const tools = gatedTools();
    const interrupt = new AbortController();
    const turn = dispatchTurn([call('write', 'a'), call('write', 'b'), call('read', 'c')], {
      dispatcher: tools.dispatcher,
      maxConcurrentTools: 1,
      interrupt: interrupt.signal,
    });
    await tools.arrived('a');
    interrupt.abort();
    tools.open('a', 'written');
    const results = await turn;
    expect(results.map((result) => result.status)).toEqual(['ok', 'cancelled', 'cancelled']);
    expect(results[0]?.result).toBe('written');
    expect(tools.started).toEqual(['a']);
  });

  it('cancels the calls still running once the grace is spent', async () => {
    const tools = gatedTools();
    const interrupt = new AbortController();
    const turn = dispatchTurn([call('write', 'a')], {
      dispatcher: tools.dispatcher,
      interrupt: interrupt.signal,
      interruptGraceMs: 0,
    });
    await tools.arrived('a');
    interrupt.abort();
    const [result] = await turn;
    expect(result?.status).toBe('cancelled');
  });

  it('stops at once when the signal aborts during the grace (a second Ctrl-C)', async () => {
    const tools = gatedTools();
    const interrupt = new AbortController();
    const signal = new AbortController();
    const turn = dispatchTurn([call('write', 'a')], {
      dispatcher: tools.dispatcher,
      interrupt: interrupt.signal,
      interruptGraceMs: 3_600_000,
      signal: signal.signal,
    });
    await tools.arrived('a');
    interrupt.abort();
    signal.abort();
    expect((await turn)[0]?.status).toBe('cancelled');
  });

  it('starts nothing when interrupted before the turn', async () => {
    const tools = gatedTools();
    const results = await dispatchTurn([call('write', 'a'), call('read', 'b')], {
      dispatcher: tools.dispatcher,
      interrupt: AbortSignal.abort(),
    });
    expect(results.map((result) => result.status)).toEqual(['cancelled', 'cancelled']);
    expect(tools.started).toEqual([]);
  });

  it('rejects a grace that is not a number ≥ 0', async () => {
    const tools = gatedTools();
    await expect(
      dispatchTurn([], { dispatcher: tools.dispatcher, interruptGraceMs: -1 }),
    ).rejects.toThrow(InvalidOptionError);
  });
});

describe('dispatchStreamedTurn: a graceful interrupt', () => {
  it('lets an eager call that runs finish, and never starts the calls held for the end', async () => {
    const tools = gatedTools();
    const feed = deltaFeed();
    const interrupt = new AbortController();
    const turn = dispatchStreamedTurn({
      deltas: feed.deltas,
      dispatcher: tools.dispatcher,
      interrupt: interrupt.signal,
    });
    feed.pushCall('0', 'read', { id: 'r' });
    feed.pushCall('1', 'write', { id: 'w' });
    await tools.arrived('r');
    interrupt.abort();
    // The model stream stops with the interrupt, as a model request's signal would make it.
    feed.fail(new Error('stream stopped'));
    tools.open('r', 'read it');
    const streamed = await turn;
    expect(streamed.results.map((result) => result.status)).toEqual(['ok', 'cancelled']);
    expect(tools.started).toEqual(['r']);
  });
});
