import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject } from 'switchyard';
import { afterAll, describe, expect, it } from 'vitest';
import { type CommandTools, type CommandToolsOptions, commandTools } from '../src/command-tools.js';
import { armedRepository } from './armed-repository.js';
import { callTool } from './host-fixture.js';

const opened: CommandTools[] = [];
afterAll(async () => {
  await Promise.all(opened.map((set) => set.close()));
});

/** An armed repository, and commands allowed only `git status`, `git log` and `git init`. */
function setUp(options: Partial<CommandToolsOptions> = {}) {
  const armed = armedRepository();
  const set = commandTools({
    cwd: armed.root,
    allowArgvPrefixes: [
      ['git', 'status'],
      ['git', 'log'],
      ['git', 'init'],
    ],
    ...options,
  });
  opened.push(set);
  const run = (args: JsonObject) => callTool(set.tools, 'run_command', args);
  return { ...armed, run };
}

describe('run_command running git', () => {
  it("runs no program of the repository's configuration behind an allow-listed git status", async () => {
    const { marker, program, git, plainGit, run } = setUp();
    git('config', 'core.fsmonitor', program);
    const status = await run({ argv: ['git', 'status', '--short'] });
    expect(status.result).toMatchObject({ status: 'completed', exit_code: 0 });
    expect(existsSync(marker)).toBe(false);
    // The same git status, run as the repository configures it: the attack works.
    plainGit('status');
    expect(existsSync(marker)).toBe(true);
  });

  it('reads no configuration from HOME, which is the command root', async () => {
    const { root, marker, program, run } = setUp();
    writeFileSync(join(root, '.gitconfig'), `[core]\n\tfsmonitor = ${program}\n`);
    await run({ argv: ['git', 'status'] });
    expect(existsSync(marker)).toBe(false);
    const unhardened = commandTools({ cwd: root, hardenGit: false });
    opened.push(unhardened);
    await callTool(unhardened.tools, 'run_command', { argv: ['git', 'status'] });
    expect(existsSync(marker), 'the attack works without the hardening').toBe(true);
  });

  it('refuses a repository whose configuration reads a file outside the root', async () => {
    const { outside, git, run } = setUp();
    writeFileSync(join(outside, 'revs'), 'TOP-SECRET\n');
    git('config', 'blame.ignoreRevsFile', join(outside, 'revs'));
    const result = await run({ argv: ['git', 'log', '--oneline'] });
    expect(result.result).toMatchObject({
      status: 'refused',
      denial: { gate: 'host_rejected', capability: 'process.exec' },
    });
  });

  it('runs git outside any repository, and as configured with hardenGit: false', async () => {
    const { root, marker, program, git, run } = setUp({ hardenGit: false });
    const fresh = await run({ argv: ['git', 'init', '-q', 'fresh'] });
    expect(fresh.result).toMatchObject({ status: 'completed', exit_code: 0 });
    expect(existsSync(join(root, 'fresh', '.git'))).toBe(true);
    git('config', 'core.fsmonitor', program);
    await run({ argv: ['git', 'status'] });
    expect(existsSync(marker)).toBe(true);
  });
});
