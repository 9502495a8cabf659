import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidOptionError } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { readTools } from '../src/read-tools.js';
import { callTool, denialOf, hostFixture } from './host-fixture.js';

const { root, outside } = hostFixture();
const tools = readTools({ root, maxReadBytes: 64, excludeGlobs: ['src/nested/**'] });

describe('readTools', () => {
  it('declares every tool read-only, on the filesystem, confined to the root', () => {
    expect(tools.map((tool) => tool.name)).toEqual([
      'read_file',
      'read_file_tail',
      'list_directory',
      'get_file_outline',
      'search_files',
      'git_inspect',
    ]);
    for (const tool of tools) {
      expect(tool.safety).toMatchObject({
        readOnly: true,
        sideEffectLevel: 'read_only',
        filesystem: true,
      });
      expect(tool.kind).toBe('read');
    }
  });

  it('reads a line range, bounded by maxReadBytes', async () => {
    const result = await callTool(tools, 'read_file', {
      path: 'notes.txt',
      start_line: 2,
      end_line: 3,
    });
    expect(result.result).toMatchObject({
      content: 'two\nthree\n',
      start_line: 2,
      end_line: 3,
      total_lines: 5,
      truncated: true,
    });
    const bytes = await callTool(tools, 'read_file', {
      path: 'notes.txt',
      offset: 4,
      length: 1000,
    });
    expect(bytes.result).toMatchObject({ content: 'two\nthree\nfour\nfive\n', offset: 4 });
  });

  it('clamps a read to maxReadBytes and says so', async () => {
    writeFileSync(join(root, 'long.txt'), `${'x'.repeat(50)}\n`.repeat(4));
    const result = await callTool(tools, 'read_file', { path: 'long.txt' });
    expect(result.result).toMatchObject({ end_line: 1, truncated: true });
  });

  it('reads the tail of a file', async () => {
    const result = await callTool(tools, 'read_file_tail', { path: 'notes.txt', lines: 2 });
    expect(result.result).toMatchObject({ content: 'four\nfive\n', lines: 2 });
  });

  it('refuses reads outside the root, through links too, with a typed denial', async () => {
    for (const path of [
      '../outside/secret.txt',
      join(outside, 'secret.txt'),
      'secret-link.txt',
      'escape/secret.txt',
    ]) {
      const result = await callTool(tools, 'read_file', { path });
      expect(result.ok).toBe(false);
      expect(result.observation).toContain('[refused]');
      expect(result.observation).not.toContain('TOP-SECRET');
      expect(denialOf(result)).toMatchObject({ gate: 'arg_constraint', deniedPaths: [path] });
    }
  });

  it('lists a directory with entry types, hiding dot-files unless asked', async () => {
    const result = await callTool(tools, 'list_directory', {});
    const entries = (result.result as { entries: { name: string; type: string }[] }).entries;
    expect(entries).toContainEqual({ name: 'escape', type: 'symlink' });
    expect(entries).toContainEqual({ name: 'src', type: 'directory' });
    expect(entries.some((entry) => entry.name === '.hidden')).toBe(false);
    const refused = await callTool(tools, 'list_directory', { path: 'escape' });
    expect(denialOf(refused)).toBeDefined();
  });

  it('searches with merged exclude globs, never through links', async () => {
    const result = await callTool(tools, 'search_files', {
      pattern: 'needle|SECRET',
      exclude_globs: ['.hidden'],
    });
    expect(result.result).toMatchObject({ matches: [] });
    const all = await readTools({ root });
    const found = await callTool(all, 'search_files', { pattern: 'needle|SECRET' });
    const paths = (found.result as { matches: { path: string }[] }).matches.map(
      (match) => match.path,
    );
    expect(paths.sort()).toEqual(['.hidden', 'src/nested/deep.txt']);
  });

  it('searches literally, case-insensitively, with max_matches and a linear-time engine', async () => {
    writeFileSync(join(root, 'many.txt'), 'a.b\n'.repeat(10));
    const literal = await callTool(tools, 'search_files', {
      pattern: 'A.B',
      literal: true,
      case_insensitive: true,
      max_matches: 3,
    });
    expect(literal.result).toMatchObject({ truncated: true });
    expect((literal.result as { matches: unknown[] }).matches).toHaveLength(3);
    writeFileSync(join(root, 'redos.txt'), `${'a'.repeat(5000)}!\n`);
    const started = performance.now();
    await callTool(tools, 'search_files', { pattern: '^(a+)+$', include_globs: ['redos.txt'] });
    expect(performance.now() - started).toBeLessThan(2000);
    const refused = await callTool(tools, 'search_files', { pattern: 'x', path: '..' });
    expect(denialOf(refused)).toBeDefined();
  });

  it('outlines a TypeScript file with tree-sitter', async () => {
    writeFileSync(
      join(root, 'src', 'shapes.ts'),
      'export class Circle {\n  area(): number { return 1; }\n}\nexport interface Shape {}\nconst make = () => new Circle();\nfunction helper() {}\n',
    );
    const result = await callTool(tools, 'get_file_outline', { path: 'src/shapes.ts' });
    expect(result.result).toMatchObject({ parser: 'tree-sitter', language: 'typescript' });
    expect((result.result as { symbols: unknown[] }).symbols).toEqual([
      { name: 'Circle', kind: 'class', line: 1, end_line: 3 },
      { name: 'area', kind: 'method', line: 2, end_line: 2, parent: 'Circle' },
      { name: 'Shape', kind: 'interface', line: 4, end_line: 4 },
      { name: 'make', kind: 'function', line: 5, end_line: 5 },
      { name: 'helper', kind: 'function', line: 6, end_line: 6 },
    ]);
  });

  it('outlines a file without a grammar from its keyword lines', async () => {
    writeFileSync(join(root, 'script.kt'), 'class Kotlin {\n}\nfun other() {}\n');
    const result = await callTool(tools, 'get_file_outline', { path: 'script.kt' });
    expect(result.result).toMatchObject({
      parser: 'keywords',
      symbols: [{ name: 'Kotlin', kind: 'class', line: 1 }],
    });
  });

  it('applies names, descriptions, groups and namespace options', () => {
    const custom = readTools({
      root,
      names: { read_file: 'open_file' },
      descriptions: { list_directory: 'ls' },
      disabledTools: ['git_inspect'],
      enabledTools: ['read'],
      namespace: 'repo',
      deferLoading: true,
      annotations: { '*': { team: 'core' } },
    });
    expect(custom.map((tool) => tool.name)).not.toContain('git_inspect');
    expect(custom[0]).toMatchObject({ name: 'open_file', namespace: 'repo', deferLoading: true });
    expect(custom[0]?.annotations).toMatchObject({ team: 'core', logicalName: 'read_file' });
    expect(custom.find((tool) => tool.name === 'list_directory')?.description).toBe('ls');
    expect(() => readTools({ root, names: { nope: 'x' } })).toThrow(InvalidOptionError);
    expect(() => readTools({ root, resultFormatter: 'yaml' as never })).toThrow(InvalidOptionError);
    expect(() => readTools({ root, maxReadBytes: 0 })).toThrow(InvalidOptionError);
  });
});

describe('resultFormatter', () => {
  it('renders what the model reads, keeps the value, and leaves refusals alone', async () => {
    const formatted = readTools({
      root,
      resultFormatter: (value, logicalName) =>
        `${logicalName}: ${(value as { content: string }).content.trim()}`,
    });
    const result = await callTool(formatted, 'read_file', { path: 'notes.txt', end_line: 1 });
    expect(result.observation).toBe('read_file: one');
    expect(result.result).toMatchObject({ content: 'one\n' });
    const refused = await callTool(formatted, 'read_file', { path: '../x' });
    expect(refused.observation).toContain('[refused]');
  });
});

describe('git_inspect', () => {
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, { cwd, encoding: 'utf8' });

  it('inspects a repository inside the root, read-only', async () => {
    const { root: repoRoot } = hostFixture();
    git(repoRoot, 'init', '-q', '-b', 'main');
    git(repoRoot, '-c', 'user.name=t', '-c', 'user.email=t@t', 'add', 'notes.txt');
    git(repoRoot, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'first notes');
    writeFileSync(join(repoRoot, 'notes.txt'), 'changed\n');
    const inspect = readTools({ root: repoRoot });
    const log = await callTool(inspect, 'git_inspect', { operation: 'log' });
    expect((log.result as { output: string }).output).toContain('first notes');
    const diff = await callTool(inspect, 'git_inspect', { operation: 'diff', path: 'notes.txt' });
    expect((diff.result as { output: string }).output).toContain('+changed');
    const blame = await callTool(inspect, 'git_inspect', {
      operation: 'blame',
      path: 'notes.txt',
      revision: 'HEAD',
    });
    expect((blame.result as { output: string }).output).toContain('one');
    const status = await callTool(inspect, 'git_inspect', { operation: 'status' });
    expect((status.result as { output: string }).output).toContain(' M notes.txt');
    const injected = await callTool(inspect, 'git_inspect', {
      operation: 'show',
      revision: '--output=/tmp/x',
    });
    expect(injected.status).toBe('schema_violation');
  });

  it('never finds a repository above the root', async () => {
    const { base, root: innerRoot } = hostFixture();
    git(base, 'init', '-q');
    const result = await callTool(readTools({ root: innerRoot }), 'git_inspect', {
      operation: 'status',
    });
    expect(result.ok).toBe(false);
    expect(result.error).toContain('not a git repository');
  });

  it('refuses a repository whose .git file points outside the root', async () => {
    const { base, root: linkedRoot } = hostFixture();
    const elsewhere = join(base, 'elsewhere');
    mkdirSync(elsewhere);
    git(elsewhere, 'init', '-q');
    writeFileSync(join(linkedRoot, '.git'), `gitdir: ${join(elsewhere, '.git')}\n`);
    const result = await callTool(readTools({ root: linkedRoot }), 'git_inspect', {
      operation: 'log',
    });
    expect(denialOf(result)?.deniedPaths).toEqual(['.']);
  });
});
