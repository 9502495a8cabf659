import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createDispatcher,
  createToolRegistry,
  InvalidOptionError,
  type JsonObject,
} from 'switchyard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideCommand, matchesArgvPrefix } from '../src/command-policy.js';
import { type CommandTools, type CommandToolsOptions, commandTools } from '../src/command-tools.js';
import { callTool, denialOf, hostFixture } from './host-fixture.js';
import { sleepers, survivors, uniqueToken, until } from './host-processes.js';

const opened: CommandTools[] = [];
afterAll(async () => {
  await Promise.all(opened.map((set) => set.close()));
});

// Every behaviour holds with either isolation; the suite runs once per kind.
let isolation: CommandToolsOptions['isolation'] = 'auto';

function setUp(options: Partial<CommandToolsOptions> = {}) {
  const fixture = hostFixture();
  const set = commandTools({ cwd: fixture.root, isolation, ...options });
  opened.push(set);
  const run = (args: JsonObject) => callTool(set.tools, 'run_command', args);
  return { ...fixture, set, run };
}

describe.each(['auto', 'process-group'] as const)('commandTools (isolation %s)', (kind) => {
  beforeAll(() => {
    isolation = kind;
  });

  it('declares run_command process_exec and its readers read-only', () => {
    const { set } = setUp();
    const [run, read, tail] = set.tools;
    expect(run?.safety).toMatchObject({
      sideEffectLevel: 'process_exec',
      readOnly: false,
      shell: false,
    });
    expect(run?.kind).toBe('execute');
    expect(read?.safety.readOnly).toBe(true);
    expect(tail?.safety.readOnly).toBe(true);
  });

  it('runs argv without a shell and reports the exit code', async () => {
    const { run } = setUp();
    const result = await run({ argv: ['sh', '-c', 'echo out; echo err >&2; exit 3'] });
    expect(result.result).toMatchObject({
      status: 'completed',
      exit_code: 3,
      stdout: 'out\n',
      stderr: 'err\n',
    });
    const literal = await run({ argv: ['echo', '$HOME; rm -rf /'] });
    expect(literal.result).toMatchObject({ stdout: '$HOME; rm -rf /\n' });
  });

  it('keeps host secrets out of the environment unless passed', async () => {
    process.env.SWITCHYARD_HOST_SECRET = 'hunter2';
    const { run } = setUp({ env: { GIVEN: 'yes' } });
    const result = await run({ argv: ['env'] });
    const out = (result.result as { stdout: string }).stdout;
    expect(out).not.toContain('hunter2');
    expect(out).toContain('GIVEN=yes');
    const { run: inherit } = setUp({ inheritEnv: ['PATH', 'SWITCHYARD_HOST_SECRET'] });
    expect(((await inherit({ argv: ['env'] })).result as { stdout: string }).stdout).toContain(
      'hunter2',
    );
    delete process.env.SWITCHYARD_HOST_SECRET;
  });

  it('refuses a working directory outside the root, through links too', async () => {
    const { run } = setUp();
    for (const cwd of ['..', '/tmp', 'escape']) {
      const result = await run({ argv: ['pwd'], cwd });
      expect(denialOf(result)?.deniedPaths).toEqual([cwd]);
    }
    expect(
      ((await run({ argv: ['pwd'], cwd: 'src' })).result as { stdout: string }).stdout,
    ).toMatch(/root\/src\n$/);
  });

  it('takes shell lines only when allowed', async () => {
    const strict = setUp();
    expect((await strict.run({ command: 'echo hi' })).status).toBe('schema_violation');
    const lenient = setUp({ allowShell: true });
    expect((await lenient.run({ command: 'echo $((40 + 2))' })).result).toMatchObject({
      stdout: '42\n',
    });
    expect(lenient.set.tools[0]?.safety.shell).toBe(true);
  });

  it('matches argv prefixes exactly, whole argument by whole argument', async () => {
    expect(matchesArgvPrefix(['git', 'log', '-1'], ['git', 'log'])).toBe(true);
    expect(matchesArgvPrefix(['git', 'logx'], ['git', 'log'])).toBe(false);
    expect(matchesArgvPrefix(['git'], ['git', 'log'])).toBe(false);
    expect(matchesArgvPrefix(['/usr/bin/git', 'log'], 'git')).toBe(false);
    const { run } = setUp({ allowArgvPrefixes: [['echo', 'hi'], 'true'], allowShell: true });
    expect((await run({ argv: ['echo', 'hi', 'there'] })).result).toMatchObject({
      stdout: 'hi there\n',
    });
    for (const argv of [['echo', 'hit'], ['echo'], ['sh', '-c', 'echo hi']]) {
      const refused = await run({ argv });
      expect(denialOf(refused)).toMatchObject({
        gate: 'arg_constraint',
        capability: 'process.exec',
      });
    }
    expect(denialOf(await run({ command: 'echo hi' }))).toBeDefined();
  });

  it('lets a policy hook deny with a reason or rewrite the command', async () => {
    const { run } = setUp({
      commandPolicy: (request) => {
        if (request.mode === 'argv' && request.argv[0] === 'rm')
          return { action: 'deny', reason: 'no deleting' };
        if (request.mode === 'argv' && request.argv[0] === 'ls')
          return { action: 'rewrite', argv: ['echo', 'rewritten'] };
        return { action: 'approve' };
      },
    });
    const denied = await run({ argv: ['rm', '-rf', '.'] });
    expect(denied.observation).toContain('no deleting');
    expect(denialOf(denied)).toMatchObject({ gate: 'hook_deny' });
    expect((await run({ argv: ['ls'] })).result).toMatchObject({ stdout: 'rewritten\n' });
    const decided = await decideCommand(
      {
        allowShell: false,
        allowArgvPrefixes: ['git'],
        commandPolicy: () => ({ action: 'rewrite', argv: ['rm', 'x'] }),
      },
      { mode: 'argv', argv: ['git'], cwd: '/' },
    );
    expect('denial' in decided).toBe(true);
  });

  it('clamps inline output and keeps the whole output readable by id and path', async () => {
    const { set, run } = setUp({ maxInlineBytes: 100 });
    const result = await run({ argv: ['sh', '-c', 'seq 1 2000'], max_inline_bytes: 5000 });
    const value = result.result as {
      stdout: string;
      truncated: boolean;
      command_id: string;
      output_path: string;
      hint: string;
    };
    expect(Buffer.byteLength(value.stdout)).toBe(100);
    expect(value.truncated).toBe(true);
    expect(value.hint).toContain('read_command_output');
    const range = await callTool(set.tools, 'read_command_output', {
      command_id: value.command_id,
      stream: 'stdout',
      offset: 0,
      length: 8,
    });
    expect(range.result).toMatchObject({ content: '1\n2\n3\n4\n', eof: false });
    const tail = await callTool(set.tools, 'read_command_output_tail', {
      path: value.output_path,
      bytes: 10,
    });
    expect(tail.result).toMatchObject({
      content: '1999\n2000\n',
      eof: true,
      command_id: value.command_id,
    });
    const outside = await callTool(set.tools, 'read_command_output', { path: '/etc/passwd' });
    expect(denialOf(outside)).toBeDefined();
  });

  it('kills everything the command started when it times out', async () => {
    const token = uniqueToken();
    const { run } = setUp({ timeoutMs: 300 });
    const result = await run({ argv: ['sh', '-c', `sleep ${token} & wait`] });
    expect(result.result).toMatchObject({ status: 'timed_out' });
    await until(() => survivors(token).length === 0, 'the grandchild to die');
  });

  it('kills everything the command started when the call is cancelled', async () => {
    const token = uniqueToken();
    const { set } = setUp();
    const dispatcher = createDispatcher({ registry: createToolRegistry(set.tools) });
    const abort = new AbortController();
    const pending = dispatcher.dispatch(
      {
        id: 'c1',
        name: 'run_command',
        arguments: { argv: ['sh', '-c', `sleep ${token} & wait`] },
      },
      { signal: abort.signal },
    );
    await until(() => sleepers(token).length === 1, 'the child to start');
    abort.abort();
    expect((await pending).status).toBe('cancelled');
    await until(() => survivors(token).length === 0, 'the grandchild to die');
    expect(set.running()).toBe(0);
  });

  it('returns running after the foreground window, keeps output coming, and close ends it', async () => {
    const { root, set, run } = setUp({ commandBehavior: { backgroundAfterMs: 50 } });
    const script = 'echo started; while [ ! -f go ]; do sleep 0.02; done; echo finished';
    const result = await run({ argv: ['sh', '-c', script] });
    const value = result.result as { status: string; command_id: string };
    expect(value.status).toBe('running');
    expect(set.running()).toBe(1);
    writeFileSync(join(root, 'go'), '');
    let content = '';
    await until(() => set.running() === 0, 'the command to finish');
    const read = await callTool(set.tools, 'read_command_output', { command_id: value.command_id });
    content = (read.result as { content: string }).content;
    expect(content).toBe('started\nfinished\n');
    const token = uniqueToken();
    const forever = await run({ argv: ['sh', '-c', `sleep ${token} & wait`] });
    expect(forever.result).toMatchObject({ status: 'running' });
    await until(() => sleepers(token).length === 1, 'the child to start');
    await set.close();
    expect(set.running()).toBe(0);
    await until(() => survivors(token).length === 0, 'the background grandchild to die');
  });

  it('checks its options', () => {
    const { root } = hostFixture();
    expect(() => commandTools({ cwd: join(root, 'missing') })).toThrow(InvalidOptionError);
    expect(() => commandTools({ cwd: root, allowArgvPrefixes: [[]] })).toThrow(InvalidOptionError);
    expect(() => commandTools({ cwd: root, maxInlineBytes: -1 })).toThrow(InvalidOptionError);
  });
});
