import { describe, expect, it } from 'vitest';
import { HttpSessions } from '../src/http-sessions.js';

function transport(name: string, closed: string[]) {
  return {
    close: async () => {
      closed.push(name);
    },
  };
}

describe('HttpSessions', () => {
  it('closes sessions idle for idleMs, never one with a request in flight', async () => {
    let now = 0;
    const closed: string[] = [];
    const sessions = new HttpSessions({ maxSessions: 8, idleMs: 1000, now: () => now });
    sessions.add('idle', transport('idle', closed));
    sessions.add('busy', transport('busy', closed));
    const end = sessions.begin('busy');
    now = 999;
    await sessions.closeIdle();
    expect(closed).toEqual([]);
    now = 1000;
    await sessions.closeIdle();
    expect(closed).toEqual(['idle']);
    end();
    now = 1999;
    await sessions.closeIdle();
    expect(closed).toEqual(['idle']);
    now = 2000;
    await sessions.closeIdle();
    expect(closed).toEqual(['idle', 'busy']);
    expect(sessions.size).toBe(0);
  });

  it('makes room by closing the least recently active idle session; refuses only when all are busy', async () => {
    let now = 0;
    const closed: string[] = [];
    const sessions = new HttpSessions({ maxSessions: 2, idleMs: 60_000, now: () => now });
    sessions.add('a', transport('a', closed));
    now = 1;
    sessions.add('b', transport('b', closed));
    now = 2;
    sessions.begin('a')();
    const release = await sessions.reserve();
    expect(closed).toEqual(['b']);
    release?.();
    const endA = sessions.begin('a');
    sessions.add('c', transport('c', closed));
    const endC = sessions.begin('c');
    expect(await sessions.reserve()).toBeUndefined();
    endC();
    expect(await sessions.reserve()).toBeTypeOf('function');
    expect(closed).toEqual(['b', 'c']);
    endA();
  });
});
