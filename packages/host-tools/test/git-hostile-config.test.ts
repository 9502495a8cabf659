import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonObject, ToolCallResult } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { gitTools, readTools } from '../src/index.js';
import { armedRepository } from './armed-repository.js';
import { callTool } from './host-fixture.js';

const identity = { name: 'Test', email: 'test@example.com' };

/** Every read the tools offer, through `git_inspect` and the git tool set. */
async function everyRead(root: string): Promise<ToolCallResult[]> {
  const inspect = readTools({ root });
  const tools = gitTools({ repo: root, identity });
  const results: ToolCallResult[] = [];
  for (const operation of ['status', 'log', 'diff', 'show'])
    results.push(await callTool(inspect, 'git_inspect', { operation }));
  results.push(await callTool(inspect, 'git_inspect', { operation: 'blame', path: 'notes.txt' }));
  for (const name of ['git_status', 'git_log', 'git_diff', 'git_show', 'git_branch'])
    results.push(await callTool(tools, name, {}));
  return results;
}

/** Every write the git tool set offers, in an order that keeps each meaningful. */
async function everyWrite(root: string): Promise<ToolCallResult[]> {
  const tools = gitTools({ repo: root, identity });
  const calls: [string, JsonObject][] = [
    ['git_add', { paths: ['.'] }],
    ['git_commit', { message: 'hostile' }],
    ['git_create_branch', { name: 'side' }],
    ['git_switch', { branch: 'side' }],
    ['git_restore', { paths: ['notes.txt'] }],
    ['git_reset', { revision: 'HEAD', mode: 'hard' }],
  ];
  const results: ToolCallResult[] = [];
  for (const [name, args] of calls) results.push(await callTool(tools, name, args));
  return results;
}

describe('git tools against a hostile repository configuration', () => {
  it('verifies no signature: log.showSignature with gpg.program on a signed commit', async () => {
    const { root, marker, program, git, plainGit } = armedRepository();
    // A commit carrying a signature header: enough for git to call the verifier.
    const tree = git('rev-parse', 'HEAD^{tree}').trim();
    const parent = git('rev-parse', 'HEAD').trim();
    const body = `tree ${tree}\nparent ${parent}\nauthor t <t@t> 1700000000 +0000\ncommitter t <t@t> 1700000000 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n wsBcBAABCAAQ\n -----END PGP SIGNATURE-----\n\nsigned\n`;
    writeFileSync(join(root, '..', 'commit.txt'), body);
    const signed = git('hash-object', '-t', 'commit', '-w', join(root, '..', 'commit.txt')).trim();
    git('update-ref', 'refs/heads/main', signed);
    git('config', 'log.showSignature', 'true');
    for (const format of ['openpgp', 'ssh']) {
      git('config', 'gpg.format', format);
      git('config', 'gpg.program', program);
      git('config', 'gpg.ssh.program', program);
      for (const result of await everyRead(root)) expect(result.ok, result.error ?? '').toBe(true);
      expect(existsSync(marker)).toBe(false);
    }
    git('config', 'gpg.format', 'openpgp');
    plainGit('--no-pager', 'log', '-1');
    expect(existsSync(marker), 'the attack works on plain git').toBe(true);
  });

  it('never enters a nested repository, whose own filter driver would run', async () => {
    const { root, marker, program, git, plainGit } = armedRepository();
    const nested = join(root, 'vendor');
    mkdirSync(nested);
    const nestedGit = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        cwd: nested,
        encoding: 'utf8',
      });
    nestedGit('init', '-q', '-b', 'main');
    writeFileSync(join(nested, 'data.txt'), 'v1\n');
    writeFileSync(join(nested, '.gitattributes'), '* filter=nested\n');
    nestedGit('add', '.');
    nestedGit('commit', '-qm', 'nested');
    nestedGit('config', 'filter.nested.clean', program);
    git('add', 'vendor');
    git('commit', '-qm', 'gitlink');
    // The nested file changes behind its index's back, its size kept: only hashing it again, through
    // the filter, can tell whether it changed.
    let version = 1;
    const stale = () => {
      version += 1;
      writeFileSync(join(nested, 'data.txt'), `v${version}\n`);
      utimesSync(join(nested, 'data.txt'), new Date(0), new Date(0));
    };
    stale();
    for (const result of await everyRead(root)) expect(result.ok, result.error ?? '').toBe(true);
    for (const result of await everyWrite(root)) expect(result.ok, result.error ?? '').toBe(true);
    expect(existsSync(marker)).toBe(false);
    stale();
    plainGit('status');
    expect(existsSync(marker), 'the attack works on plain git').toBe(true);
  });

  it('shows nothing of a blame.ignoreRevsFile outside the root, and refuses the repository', async () => {
    const { root, outside, git, plainGit } = armedRepository();
    writeFileSync(join(outside, 'secret.txt'), 'TOP-SECRET-FIRST-LINE\nsecond\n');
    git('config', 'blame.ignoreRevsFile', join(outside, 'secret.txt'));
    const inspect = readTools({ root });
    const blame = await callTool(inspect, 'git_inspect', { operation: 'blame', path: 'notes.txt' });
    expect(JSON.stringify(blame)).not.toContain('TOP-SECRET');
    expect(blame.result).toMatchObject({ status: 'refused', denial: { gate: 'host_rejected' } });
    expect(plainGit('blame', 'notes.txt').stderr, 'the attack works on plain git').toContain(
      'TOP-SECRET-FIRST-LINE',
    );
  });

  // Every key naming a file git reads (or, core.worktree, a work tree), pointed outside the root,
  // with a file there that would change what git shows; and configuration included from outside.
  const outsidePaths: Record<string, readonly [file: string, content: string]> = {
    'blame.ignoreRevsFile': ['revs', 'TOP-SECRET\n'],
    'core.excludesFile': ['ignore', 'notes.txt\n'],
    'core.attributesFile': ['attributes', '* -diff\n'],
    'diff.orderFile': ['order', 'notes.txt\n'],
    'mailmap.file': ['mailmap', 'Leaked Name <t@t>\n'],
    'commit.template': ['template', 'TOP-SECRET\n'],
    'gpg.ssh.allowedSignersFile': ['signers', 'TOP-SECRET\n'],
    'gpg.ssh.revocationFile': ['revoked', 'TOP-SECRET\n'],
    'init.templateDir': ['.', ''],
    'core.worktree': ['.', ''],
    'include.path': ['included.cfg', '[diff]\n\tnoprefix = true\n'],
  };
  for (const [key, [name, content]] of Object.entries(outsidePaths)) {
    it(`refuses a repository whose ${key} points outside the root`, async () => {
      const { root, outside, git } = armedRepository();
      if (name !== '.') writeFileSync(join(outside, name), content);
      git('config', key, join(outside, name));
      for (const result of [...(await everyRead(root)), ...(await everyWrite(root))]) {
        expect(result.result).toMatchObject({ status: 'refused' });
        expect(JSON.stringify(result)).not.toMatch(/TOP-SECRET|Leaked Name/);
      }
      if (key === 'include.path' || key === 'core.worktree') return;
      // Another user's home, or git's own prefix: outside the root as well.
      for (const path of ['~root/x', '%(prefix)/x']) {
        git('config', key, path);
        const status = await callTool(readTools({ root }), 'git_inspect', { operation: 'status' });
        expect(status.result).toMatchObject({
          status: 'refused',
          denial: { gate: 'host_rejected' },
        });
      }
    });
  }

  it('follows path keys and includes that stay inside the root', async () => {
    const { root, git } = armedRepository();
    const head = git('rev-parse', 'HEAD').trim();
    writeFileSync(join(root, '.git-blame-ignore-revs'), `${head}\n`);
    writeFileSync(join(root, 'extra.cfg'), '[diff]\n\tnoprefix = true\n');
    git('config', 'blame.ignoreRevsFile', '.git-blame-ignore-revs');
    git('config', 'include.path', '../extra.cfg');
    writeFileSync(join(root, 'notes.txt'), 'changed\n');
    const inspect = readTools({ root });
    const blame = await callTool(inspect, 'git_inspect', { operation: 'blame', path: 'notes.txt' });
    expect(blame.ok, blame.error ?? '').toBe(true);
    const diff = await callTool(inspect, 'git_inspect', { operation: 'diff' });
    expect((diff.result as { output: string }).output).toContain('--- notes.txt');
    rmSync(join(root, 'extra.cfg'));
  });
});
