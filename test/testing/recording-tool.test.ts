import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import { recordingTool } from '../../src/testing/recording-tool.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';

function run(fake: ReturnType<typeof recordingTool>) {
  const dispatcher = createDispatcher({ registry: createToolRegistry([fake.tool]) });
  return (args: Record<string, string> = {}) =>
    dispatcher.dispatch({ id: `c${fake.callCount}`, name: fake.tool.name, arguments: args });
}

describe('recordingTool', () => {
  it('echoes its arguments by default and records every call in order', async () => {
    const fake = recordingTool({ name: 'echo' });
    const call = run(fake);
    expect((await call({ a: '1' })).result).toEqual({ a: '1' });
    await call({ b: '2' });
    expect(fake.callCount).toBe(2);
    expect(fake.calls.map((recorded) => recorded.args)).toEqual([{ a: '1' }, { b: '2' }]);
    expect(fake.lastCall?.callId).toBe('c1');
  });

  it('defaults to a read-only tool accepting any object', () => {
    const fake = recordingTool({ name: 'echo' });
    expect(fake.tool.safety.readOnly).toBe(true);
    expect(fake.tool.inputSchema).toEqual({ type: 'object' });
  });

  it('runs queued once behaviours first, then the default', async () => {
    const fake = recordingTool({ name: 'script' })
      .returns('default')
      .once({ type: 'return', value: 'first' })
      .once({ type: 'throw', error: new Error('second') });
    const call = run(fake);
    expect((await call()).result).toBe('first');
    expect((await call()).error).toBe('second');
    expect((await call()).result).toBe('default');
  });

  it('nextCall resolves with calls in arrival order, whether awaited before or after', async () => {
    const fake = recordingTool({ name: 'watch' });
    const call = run(fake);
    const first = fake.nextCall();
    await call({ n: '1' });
    await call({ n: '2' });
    expect((await first).args).toEqual({ n: '1' });
    expect((await fake.nextCall()).args).toEqual({ n: '2' });
  });

  it('reset forgets calls and queued behaviours but keeps the default', async () => {
    const fake = recordingTool({ name: 'r' })
      .returns('kept')
      .once({ type: 'return', value: 'dropped' });
    fake.reset();
    const call = run(fake);
    expect((await call()).result).toBe('kept');
    expect(fake.callCount).toBe(1);
  });

  it('respondsWith sees the recorded call and its runtime', async () => {
    const fake = recordingTool({ name: 'r' }).respondsWith((recorded) => recorded.runtime.toolName);
    expect((await run(fake)()).result).toBe('r');
  });
});
