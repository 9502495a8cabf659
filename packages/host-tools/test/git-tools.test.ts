import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidOptionError } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { GIT_OPERATIONS } from '../src/git-operations.js';
import { scoreGitOperation } from '../src/git-toolbox.js';
import { gitToolbox, gitTools } from '../src/index.js';
import { callTool, denialOf, hostFixture } from './host-fixture.js';

const identity = { name: 'Test', email: 'test@example.com' };

function repository() {
  const fixture = hostFixture();
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: fixture.root, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', 'notes.txt');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'initial notes');
  return { ...fixture, git };
}

const output = (result: { result: unknown }) => (result.result as { output: string }).output;

describe('gitTools', () => {
  it('declares truthful safety per operation', () => {
    const { root } = repository();
    const tools = new Map(gitTools({ repo: root }).map((tool) => [tool.name, tool]));
    expect(tools.get('git_status')?.safety).toMatchObject({
      readOnly: true,
      sideEffectLevel: 'read_only',
    });
    expect(tools.get('git_commit')?.safety).toMatchObject({
      readOnly: false,
      destructive: false,
      sideEffectLevel: 'workspace_write',
    });
    expect(tools.get('git_reset')?.safety).toMatchObject({ destructive: true });
    expect(tools.get('git_restore')?.kind).toBe('delete');
    expect(tools.get('git_add')?.exclusiveLane).toBe('git');
  });

  it('stages, commits, branches and switches in a real repository', async () => {
    const { root, git } = repository();
    const tools = gitTools({ repo: root, identity });
    writeFileSync(join(root, 'notes.txt'), 'rewritten\n');
    expect(output(await callTool(tools, 'git_status', {}))).toContain(' M notes.txt');
    expect(output(await callTool(tools, 'git_diff', { paths: ['notes.txt'] }))).toContain(
      '+rewritten',
    );
    expect((await callTool(tools, 'git_add', { paths: ['notes.txt'] })).ok).toBe(true);
    expect(output(await callTool(tools, 'git_diff', { staged: true }))).toContain('+rewritten');
    expect((await callTool(tools, 'git_commit', { message: 'rewrite notes' })).ok).toBe(true);
    expect(output(await callTool(tools, 'git_log', { max_count: 1 }))).toContain('Test\t');
    expect((await callTool(tools, 'git_switch', { branch: 'feature', create: true })).ok).toBe(
      true,
    );
    expect(output(await callTool(tools, 'git_branch', {}))).toMatch(/\* feature/);
    expect(git('rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('feature');
    expect(output(await callTool(tools, 'git_show', {}))).toContain('rewrite notes');
  });

  it('restores a deleted file and resets, destructively', async () => {
    const { root } = repository();
    const tools = gitTools({ repo: root, identity });
    execFileSync('rm', [join(root, 'notes.txt')]);
    expect((await callTool(tools, 'git_restore', { paths: ['notes.txt'] })).ok).toBe(true);
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toContain('one');
    writeFileSync(join(root, 'notes.txt'), 'dirty\n');
    expect((await callTool(tools, 'git_reset', { revision: 'HEAD', mode: 'hard' })).ok).toBe(true);
    expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toContain('one');
  });

  it('refuses paths outside the repository and option-like values', async () => {
    const { root, outside } = repository();
    const tools = gitTools({ repo: root, identity });
    for (const path of [
      '../outside/secret.txt',
      join(outside, 'secret.txt'),
      'escape/secret.txt',
      '../outside/missing.txt',
    ]) {
      expect(denialOf(await callTool(tools, 'git_add', { paths: [path] }))).toBeDefined();
    }
    expect((await callTool(tools, 'git_switch', { branch: '--orphan' })).status).toBe(
      'schema_violation',
    );
    // A file of this test's own, so a path some other program made cannot decide the assertion.
    const leaked = join(outside, 'leaked-log');
    expect((await callTool(tools, 'git_log', { revision: `--output=${leaked}` })).status).toBe(
      'schema_violation',
    );
    expect(existsSync(leaked)).toBe(false);
  });

  it('reports git failures as tool errors and checks options', async () => {
    const { root } = repository();
    const result = await callTool(gitTools({ repo: root }), 'git_switch', { branch: 'nowhere' });
    expect(result.errorCategory).toBe('tool_error');
    expect(result.error).toContain('git_switch failed');
    expect(() => gitTools({ repo: root, enabledTools: ['git_push'] })).toThrow(InvalidOptionError);
    expect(
      gitTools({ repo: root, enabledTools: ['git_status'], names: { git_status: 'status' } }).map(
        (tool) => tool.name,
      ),
    ).toEqual(['status']);
  });
});

describe('gitToolbox', () => {
  it('finds operations by plain words, deterministically', async () => {
    const { root } = repository();
    const tools = gitToolbox({ repo: root, includeMutations: true });
    const found = async (query: string) =>
      (
        (await callTool(tools, 'find_git_tool', { query })).result as { tools: { name: string }[] }
      ).tools.map((tool) => tool.name);
    expect((await found('what changed in the working tree'))[0]).toBe('git_status');
    expect((await found('commit history'))[0]).toBe('git_log');
    expect((await found('discard changes to a file'))[0]).toBe('git_restore');
    expect((await found('switch branch'))[0]).toBe('git_switch');
    const status = GIT_OPERATIONS.find((operation) => operation.key === 'git_status');
    expect(status && scoreGitOperation(status, 'xyzzy')).toBe(0);
  });

  it('runs an operation by name, read-only unless mutations are included', async () => {
    const { root } = repository();
    const readOnly = gitToolbox({ repo: root });
    expect(readOnly.find((tool) => tool.name === 'run_git_tool')?.safety.readOnly).toBe(true);
    const log = await callTool(readOnly, 'run_git_tool', {
      name: 'git_log',
      arguments: { max_count: 1 },
    });
    expect(output(log)).toContain('initial notes');
    expect(
      (
        await callTool(readOnly, 'run_git_tool', {
          name: 'git_commit',
          arguments: { message: 'x' },
        })
      ).status,
    ).toBe('schema_violation');
    const bad = await callTool(readOnly, 'run_git_tool', {
      name: 'git_log',
      arguments: { max_count: 'many' },
    });
    expect(bad.error).toContain('invalid arguments for git_log');
    const writable = gitToolbox({ repo: root, includeMutations: true, identity });
    expect(writable.find((tool) => tool.name === 'run_git_tool')?.safety).toMatchObject({
      readOnly: false,
      destructive: true,
    });
    expect(
      (
        await callTool(writable, 'run_git_tool', {
          name: 'git_create_branch',
          arguments: { name: 'topic' },
        })
      ).ok,
    ).toBe(true);
  });
});
