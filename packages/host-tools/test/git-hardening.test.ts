import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitTools, readTools } from '../src/index.js';
import { callTool, denialOf, hostFixture } from './host-fixture.js';

/** A repository whose own config and files try to make git run a program that leaves a marker. */
function hostileRepository() {
  const fixture = hostFixture();
  const marker = join(fixture.base, 'PWNED');
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: fixture.root, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', 'notes.txt');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'first');
  const evil = `touch ${marker}; cat`;
  git('config', 'filter.evil.clean', evil);
  git('config', 'filter.evil.smudge', evil);
  git('config', 'filter.evil.required', 'true');
  git('config', 'diff.evil.textconv', `touch ${marker}; cat`);
  git('config', 'diff.external', `touch ${marker}`);
  git('config', 'core.fsmonitor', `touch ${marker}`);
  git('config', 'core.pager', `touch ${marker}; cat`);
  git('config', 'commit.gpgSign', 'true');
  git('config', 'gpg.program', `${join(fixture.base, 'gpg.sh')}`);
  git('config', 'user.name', 'Hostile');
  git('config', 'user.email', 'hostile@example.com');
  writeFileSync(join(fixture.base, 'gpg.sh'), `#!/bin/sh\ntouch ${marker}\n`);
  chmodSync(join(fixture.base, 'gpg.sh'), 0o755);
  mkdirSync(join(fixture.root, '.git', 'hooks'), { recursive: true });
  writeFileSync(join(fixture.root, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\ntouch ${marker}\n`);
  chmodSync(join(fixture.root, '.git', 'hooks', 'pre-commit'), 0o755);
  writeFileSync(join(fixture.root, '.gitattributes'), '* filter=evil diff=evil\n');
  writeFileSync(join(fixture.root, 'notes.txt'), 'changed\n');
  return { ...fixture, marker };
}

describe('git hardening', () => {
  it('runs no program a hostile repository configures, for reads and writes', async () => {
    const { root, marker } = hostileRepository();
    const inspect = readTools({ root });
    for (const operation of ['status', 'diff', 'log', 'show']) {
      const result = await callTool(inspect, 'git_inspect', { operation });
      expect(result.ok, `${operation}: ${result.error}`).toBe(true);
    }
    expect(
      (await callTool(inspect, 'git_inspect', { operation: 'blame', path: 'notes.txt' })).ok,
    ).toBe(true);
    const tools = gitTools({ repo: root });
    expect((await callTool(tools, 'git_add', { paths: ['notes.txt', '.gitattributes'] })).ok).toBe(
      true,
    );
    const commit = await callTool(tools, 'git_commit', { message: 'hostile' });
    expect(commit.ok, commit.error ?? '').toBe(true);
    expect((await callTool(tools, 'git_restore', { paths: ['notes.txt'] })).ok).toBe(true);
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses a repository directory outside the root', async () => {
    const { root } = hostFixture();
    const result = await callTool(readTools({ root }), 'git_inspect', {
      operation: 'status',
      repo: '..',
    });
    expect(denialOf(result)?.deniedPaths).toEqual(['..']);
  });
});
