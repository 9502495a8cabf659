import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostFixture } from './host-fixture.js';

/**
 * A repository in the root with one commit, a marker path beside the root, and a program outside
 * the root that creates the marker and passes its input through (so it can stand for a filter):
 * what a hostile repository's configuration points git at. `git` configures it; `plainGit` runs
 * git as the user would, the attack's control.
 */
export function armedRepository() {
  const fixture = hostFixture();
  const marker = join(fixture.base, 'PWNED');
  const program = join(fixture.outside, 'evil.sh');
  writeFileSync(program, `#!/bin/sh\ntouch ${marker}\ncat\n`);
  chmodSync(program, 0o755);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd: fixture.root,
      encoding: 'utf8',
    });
  git('init', '-q', '-b', 'main');
  git('add', 'notes.txt');
  git('commit', '-qm', 'first');
  const plainGit = (...args: string[]) =>
    spawnSync('git', args, { cwd: fixture.root, encoding: 'utf8', env: { ...process.env } });
  return { ...fixture, marker, program, git, plainGit };
}
