import { describe, expect, it } from 'vitest';
import type { ProposedCall } from '../../src/dispatch/proposed-call.js';
import { PushSource } from '../../src/streams/push-source.js';
import { ARRIVES_LATER } from '../../src/streams/turn-options.js';

const call = (id: string): ProposedCall => ({ id, name: 't', arguments: {} });

describe('PushSource', () => {
  it('hands calls pushed before the pull over in order, synchronously', () => {
    const source = new PushSource();
    const puller = { arrived: () => expect.unreachable() };
    source.push(call('a'));
    source.push(call('b'));
    expect(source.next(puller)).toEqual(call('a'));
    expect(source.next(puller)).toEqual(call('b'));
  });

  it('hands a call pushed while the puller waits straight to it, once', () => {
    const source = new PushSource();
    const arrived: (ProposedCall | undefined)[] = [];
    const puller = { arrived: (each: ProposedCall | undefined) => arrived.push(each) };
    expect(source.next(puller)).toBe(ARRIVES_LATER);
    source.push(call('a'));
    expect(arrived).toEqual([call('a')]);
    // The puller is no longer waiting: the next call queues until it pulls again.
    source.push(call('b'));
    expect(arrived).toHaveLength(1);
    expect(source.next(puller)).toEqual(call('b'));
  });
});
