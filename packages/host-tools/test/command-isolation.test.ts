import { createDispatcher, createToolRegistry, type JsonObject } from 'switchyard';
import { afterAll, describe, expect, it } from 'vitest';
import { type CommandTools, type CommandToolsOptions, commandTools } from '../src/command-tools.js';
import { callTool, hostFixture } from './host-fixture.js';
import { sleepers, survivors, uniqueToken, until } from './host-processes.js';

// What a command may do to outlive its call, as a model would write it: each line leaves a
// `sleep` with a unique duration (its token) that the host can look for in /proc, and returns
// once that sleep has escaped (it touched `ready`).
const READY = 'while [ ! -e ready ]; do sleep 0.01; done; echo started';
const ESCAPES = {
  'a setsid child holding the output pipes': (token: string) =>
    `setsid sh -c ': > ready; exec sleep ${token}' & ${READY}`,
  'a double fork that reparents to init and ignores SIGTERM': (token: string) =>
    `( sh -c 'trap "" TERM; : > ready; exec sleep ${token}' & ) ; ${READY}`,
  'a daemon that closes its pipes and leaves the session': (token: string) =>
    `setsid sh -c 'exec </dev/null >/dev/null 2>&1; : > ready; exec sleep ${token}' & ${READY}`,
};

const opened: CommandTools[] = [];
const strays: number[] = [];
afterAll(async () => {
  await Promise.all(opened.map((set) => set.close()));
  for (const pid of strays) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

function setUp(options: Partial<CommandToolsOptions> = {}) {
  const fixture = hostFixture();
  const set = commandTools({ cwd: fixture.root, ...options });
  opened.push(set);
  const run = (args: JsonObject) => callTool(set.tools, 'run_command', args);
  return { ...fixture, set, run };
}

const namespaces =
  process.platform === 'linux' && (await setUp().set.isolation()) === 'pid-namespace';

describe.runIf(namespaces)('run_command in a PID namespace', () => {
  for (const [name, line] of Object.entries(ESCAPES)) {
    it(`ends the call and leaves nothing running: ${name}`, async () => {
      const token = uniqueToken();
      const { set, run } = setUp({ timeoutMs: 60_000 });
      const result = await run({ argv: ['sh', '-c', line(token)], timeout_ms: 1000 });
      // The command is its program: when `sh` exits, whatever it left behind is killed.
      expect(result.result).toMatchObject({
        status: 'completed',
        exit_code: 0,
        stdout: 'started\n',
      });
      await set.close();
      expect(survivors(token)).toEqual([]);
    });
  }

  it('ends a command timed_out at its budget while an escaped child holds the pipes', async () => {
    const token = uniqueToken();
    const { set, run } = setUp();
    const line = `${ESCAPES['a setsid child holding the output pipes'](token)}; exec sleep ${token}`;
    const result = await run({ argv: ['sh', '-c', line], timeout_ms: 500 });
    expect(result.result).toMatchObject({ status: 'timed_out', stdout: 'started\n' });
    expect(survivors(token)).toEqual([]);
    await set.close();
  });

  it('leaves nothing running after close(), background commands and escapes included', async () => {
    const token = uniqueToken();
    const { set, run } = setUp({ commandBehavior: { backgroundAfterMs: 1 } });
    const line = `${ESCAPES['a daemon that closes its pipes and leaves the session'](token)}; sleep ${token}`;
    const result = await run({ argv: ['sh', '-c', line] });
    expect(result.result).toMatchObject({ status: 'running' });
    await set.close();
    expect(set.running()).toBe(0);
    expect(survivors(token)).toEqual([]);
  });

  it('kills everything when the call is cancelled', async () => {
    const token = uniqueToken();
    const { set } = setUp();
    const dispatcher = createDispatcher({ registry: createToolRegistry(set.tools) });
    const abort = new AbortController();
    const line = `${ESCAPES['a setsid child holding the output pipes'](token)}; exec sleep ${token}`;
    const pending = dispatcher.dispatch(
      { id: 'c1', name: 'run_command', arguments: { argv: ['sh', '-c', line] } },
      { signal: abort.signal },
    );
    await until(() => sleepers(token).length === 2, 'the command and its escaped child');
    abort.abort();
    // The call ends at once; its command is killed meanwhile, and close() waits for that.
    expect((await pending).status).toBe('cancelled');
    await set.close();
    expect(survivors(token)).toEqual([]);
  });

  it('runs the program as an ordinary process: not PID 1, its own signals, its stdin', async () => {
    const { run } = setUp();
    const pid = await run({ argv: ['sh', '-c', 'echo $$'] });
    expect((pid.result as { stdout: string }).stdout).not.toBe('1\n');
    // A PID 1 ignores a signal it has no handler for; an ordinary process dies of it.
    const killed = await run({ argv: ['sh', '-c', 'kill -TERM $$; echo survived'] });
    expect(killed.result).toMatchObject({ status: 'completed', exit_code: 143, stdout: '' });
    const echoed = await run({ argv: ['cat'], stdin: 'from the model\n' });
    expect(echoed.result).toMatchObject({ stdout: 'from the model\n' });
  });

  it('reports a program that does not exist as failed_to_start', async () => {
    const { run } = setUp();
    const result = await run({ argv: ['no-such-program-here'] });
    expect(result.result).toMatchObject({ status: 'failed_to_start' });
    expect((result.result as { stderr: string }).stderr).toContain('no-such-program-here');
  });
});

describe('run_command with process groups only', () => {
  it('says which isolation it has', async () => {
    expect(await setUp({ isolation: 'process-group' }).set.isolation()).toBe('process-group');
  });

  it('ends the call timed_out at its budget and close() resolves, whatever escaped the group', async () => {
    const token = uniqueToken();
    const { set, run } = setUp({ isolation: 'process-group' });
    const result = await run({
      argv: ['sh', '-c', ESCAPES['a setsid child holding the output pipes'](token)],
      timeout_ms: 500,
    });
    expect(result.result).toMatchObject({ status: 'timed_out', stdout: 'started\n' });
    await set.close();
    // Where there is no PID namespace, a child that left the process group is out of reach.
    strays.push(...survivors(token));
  });

  it('kills what stays in the group: a double fork, a child ignoring SIGTERM', async () => {
    const token = uniqueToken();
    const { set, run } = setUp({ isolation: 'process-group' });
    const line = ESCAPES['a double fork that reparents to init and ignores SIGTERM'](token);
    const result = await run({ argv: ['sh', '-c', line], timeout_ms: 60_000 });
    expect(result.result).toMatchObject({ status: 'completed', stdout: 'started\n' });
    await set.close();
    await until(() => survivors(token).length === 0, 'the group to be gone');
  });
});
