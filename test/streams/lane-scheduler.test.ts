import { describe, expect, it } from 'vitest';
import type { CallPlan } from '../../src/streams/call-plan.js';
import { LaneScheduler } from '../../src/streams/lane-scheduler.js';

function plan(
  emitOrder: number,
  constraint: { exclusive?: boolean; keys?: string[] } = {},
  gated = false,
): CallPlan {
  return {
    read: { id: `c${emitOrder}`, name: 't', arguments: {} },
    tool: null,
    emitOrder,
    constraint: { exclusive: constraint.exclusive ?? false, keys: constraint.keys ?? [] },
    gated,
  };
}

/** A scheduler whose started calls are recorded and stay running until settled by hand. */
function scheduler(maxInFlight: number, gateClosed = false) {
  const started: CallPlan[] = [];
  const lanes = new LaneScheduler({
    maxInFlight,
    gateClosed,
    start: (each) => started.push(each),
  });
  const order = () => started.map((each) => each.emitOrder);
  return { lanes, started, order };
}

describe('LaneScheduler', () => {
  it('starts at most maxInFlight calls, in planner order', () => {
    const { lanes, started, order } = scheduler(2);
    lanes.waiting.push(plan(0), plan(1), plan(2));
    lanes.pass();
    expect(order()).toEqual([0, 1]);
    lanes.settled(started[0]!);
    lanes.pass();
    expect(order()).toEqual([0, 1, 2]);
    expect(lanes.inFlight).toBe(2);
  });

  it('runs calls on one resource one after another; a free call passes them', () => {
    const { lanes, started, order } = scheduler(8);
    lanes.waiting.push(plan(0, { keys: ['a'] }), plan(1, { keys: ['a'] }), plan(2));
    lanes.pass();
    expect(order()).toEqual([0, 2]);
    lanes.settled(started[0]!);
    lanes.pass();
    expect(order()).toEqual([0, 2, 1]);
  });

  it('makes an exclusive call a barrier: it waits for running calls, nothing overtakes it', () => {
    const { lanes, started, order } = scheduler(8);
    lanes.waiting.push(plan(0), plan(1, { exclusive: true }), plan(2));
    lanes.pass();
    expect(order()).toEqual([0]);
    lanes.settled(started[0]!);
    lanes.pass();
    expect(order()).toEqual([0, 1]);
    lanes.pass();
    expect(order()).toEqual([0, 1]);
    lanes.settled(started[1]!);
    lanes.pass();
    expect(order()).toEqual([0, 1, 2]);
  });

  it('holds gated calls in place with their claims until the gate opens', () => {
    const { lanes, order } = scheduler(8, true);
    lanes.waiting.push(plan(0, { keys: ['a'] }, true), plan(1, { keys: ['a'] }), plan(2));
    lanes.pass();
    // Call 1 must not overtake the gated call 0 on resource a; call 2 is free.
    expect(order()).toEqual([2]);
    lanes.gateClosed = false;
    lanes.pass();
    expect(order()).toEqual([2, 0]);
  });

  it('once stopped, starts every waiting call at once, whatever the bound and lanes', () => {
    const { lanes, order } = scheduler(1);
    lanes.waiting.push(plan(0, { keys: ['a'] }), plan(1, { keys: ['a'] }), plan(2));
    lanes.pass();
    expect(order()).toEqual([0]);
    lanes.stopped = true;
    lanes.pass();
    expect(order()).toEqual([0, 1, 2]);
    expect(lanes.waiting).toHaveLength(0);
  });
});
