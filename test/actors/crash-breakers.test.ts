import { describe, expect, it } from 'vitest';
import { CrashBreakers } from '../../src/actors/crash-breakers.js';

function breakers(limit = 2, cooldownMs = 1_000) {
  const clock = { now: 0 };
  return { clock, breakers: new CrashBreakers({ limit, cooldownMs, now: () => clock.now }) };
}

describe('CrashBreakers', () => {
  it('opens a module after limit crashes in a row, leaving other modules alone', () => {
    const { breakers: crash } = breakers();
    expect(crash.crashed('a', 'exit 1')).toBe(false);
    expect(crash.crashed('a', 'exit 1')).toBe(true);
    expect(crash.admit('a')).toMatchObject({
      run: false,
      reason: expect.stringContaining('exit 1'),
    });
    expect(crash.admit('b')).toEqual({ run: true, probe: false });
    expect(crash.closed).toBe(false);
  });

  it('resets the streak when a call of the module completes', () => {
    const { breakers: crash } = breakers();
    crash.crashed('a', 'x');
    crash.completed('a');
    expect(crash.crashed('a', 'x')).toBe(false);
  });

  it('lets one probe through after the cool-down; a completed probe closes the breaker', () => {
    const { clock, breakers: crash } = breakers();
    crash.crashed('a', 'x');
    crash.crashed('a', 'x');
    clock.now = 999;
    expect(crash.admit('a').run).toBe(false);
    clock.now = 1_000;
    expect(crash.admit('a')).toEqual({ run: true, probe: true });
    expect(crash.admit('a').run).toBe(false); // one probe at a time
    crash.completed('a');
    expect(crash.admit('a')).toEqual({ run: true, probe: false });
    expect(crash.closed).toBe(true);
  });

  it('reopens for a full cool-down when the probe crashes, and probes again when one ends otherwise', () => {
    const { clock, breakers: crash } = breakers(1);
    crash.crashed('a', 'x');
    clock.now = 1_000;
    expect(crash.admit('a').run).toBe(true);
    expect(crash.crashed('a', 'again')).toBe(true);
    clock.now = 1_999;
    expect(crash.admit('a').run).toBe(false);
    clock.now = 2_000;
    expect(crash.admit('a')).toEqual({ run: true, probe: true });
    crash.probeEnded('a'); // timed out or cancelled: neither healthy nor crashed
    expect(crash.admit('a')).toEqual({ run: true, probe: true });
  });
});
