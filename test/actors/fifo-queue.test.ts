import { describe, expect, it } from 'vitest';
import { FifoQueue } from '../../src/actors/fifo-queue.js';

describe('FifoQueue', () => {
  it('shifts values in the order they were pushed', () => {
    const queue = new FifoQueue<string>();
    queue.push('a');
    queue.push('b');
    queue.push('c');
    expect(queue.size).toBe(3);
    expect(queue.peek()).toBe('a');
    expect([...queue]).toEqual(['a', 'b', 'c']);
    expect(queue.shift()).toBe('a');
    expect(queue.shift()).toBe('b');
    expect(queue.size).toBe(1);
  });

  it('returns undefined from an empty queue and works again after emptying', () => {
    const queue = new FifoQueue<number>();
    expect(queue.shift()).toBeUndefined();
    expect(queue.peek()).toBeUndefined();
    queue.push(1);
    expect(queue.shift()).toBe(1);
    expect(queue.shift()).toBeUndefined();
    expect(queue.size).toBe(0);
    queue.push(2);
    queue.push(3);
    expect([...queue]).toEqual([2, 3]);
    expect(queue.shift()).toBe(2);
  });

  it('keeps falsy values apart from emptiness by size', () => {
    const queue = new FifoQueue<number | null>();
    queue.push(0);
    queue.push(null);
    expect(queue.size).toBe(2);
    expect(queue.shift()).toBe(0);
    expect(queue.shift()).toBeNull();
    expect(queue.size).toBe(0);
  });

  it('pushes and shifts 100 000 values in order', () => {
    const queue = new FifoQueue<number>();
    const count = 100_000;
    for (let index = 0; index < count; index += 1) queue.push(index);
    expect(queue.size).toBe(count);
    let expected = 0;
    let outOfOrder = 0;
    // Interleave: shift two, push one, until the backlog is gone.
    let next = count;
    while (queue.size > 0) {
      if (queue.shift() !== expected) outOfOrder += 1;
      expected += 1;
      if (queue.size > 0) {
        if (queue.shift() !== expected) outOfOrder += 1;
        expected += 1;
      }
      if (next < count + 50_000) queue.push(next++);
    }
    expect(outOfOrder).toBe(0);
    expect(expected).toBe(count + 50_000);
  });
});
