import { execFileSync } from 'node:child_process';
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  createDispatcher,
  createToolRegistry,
  type JsonObject,
  type ToolCallResult,
} from 'switchyard';
import { afterAll, describe, expect, it } from 'vitest';
import { commandTools, readTools, stdlibTools } from '../src/index.js';
import { isInsideRoot } from '../src/root-scope.js';
import { hostFixture } from './host-fixture.js';

// Every tool that takes a path, driven with random path strings: whatever the string, nothing from
// outside the root reaches the model. Outside holds a secret file, a file whose name appears only
// there, and a git repository whose commit names itself.
const { root, outside } = hostFixture();
const realRoot = realpathSync(root);
const OUTSIDE_ONLY = 'zz-only-outside-7f3a';
writeFileSync(join(outside, OUTSIDE_ONLY), 'TOP-SECRET too\n');
function commitAll(cwd: string, message: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', message);
}
commitAll(outside, 'OUTSIDE-COMMIT');
commitAll(root, 'inside commit');

const commands = commandTools({ cwd: root });
const dispatcher = createDispatcher({
  registry: createToolRegistry([
    ...readTools({ root }),
    ...commands.tools,
    ...stdlibTools({ root, workers: false }),
  ]),
});
afterAll(() => commands.close());

const FILE_CALLS: readonly ((path: string) => [string, JsonObject])[] = [
  (path) => ['read_file', { path }],
  (path) => ['read_file_tail', { path }],
  (path) => ['list_directory', { path, include_hidden: true }],
  (path) => ['get_file_outline', { path }],
  (path) => ['search_files', { pattern: 'TOP-SECRET', literal: true, path }],
  (path) => ['vision_ocr', { image: path }],
];
const PROCESS_CALLS: readonly ((path: string) => [string, JsonObject])[] = [
  (path) => ['git_inspect', { operation: 'log', repo: path }],
  (path) => ['git_inspect', { operation: 'show', path }],
  (path) => ['run_command', { argv: ['pwd'], cwd: path }],
];

const piece = fc.constantFrom(
  '..',
  '.',
  'src',
  'nested',
  'escape',
  'secret-link.txt',
  'inner-link.txt',
  'notes.txt',
  'notes.txt',
  'src/main.ts',
  '',
  '/',
  '\\',
  '%2e%2e',
  '..\u2215..',
  '\u0000',
  '\uD800',
  outside,
  realpathSync(outside),
  '~',
);
// Mostly the pieces above, so that many calls succeed inside the root and many come close to the
// edge; now and then an arbitrary string, or the root's own absolute path in front.
const pathString = fc
  .tuple(
    fc.array(fc.oneof({ arbitrary: piece, weight: 6 }, { arbitrary: fc.string(), weight: 1 }), {
      maxLength: 4,
    }),
    fc.constantFrom('', '', '', '/', `${root}/`),
  )
  .map(([pieces, prefix]) => `${prefix}${pieces.join('/')}`);

async function call(name: string, args: JsonObject): Promise<ToolCallResult> {
  return dispatcher.dispatch({ id: `p_${name}`, name, arguments: args });
}

function neverLeaks(result: ToolCallResult): void {
  const seen = `${result.observation}\n${JSON.stringify(result.result ?? null)}`;
  expect(seen).not.toContain('TOP-SECRET');
  expect(seen).not.toContain(OUTSIDE_ONLY);
  expect(seen).not.toContain('OUTSIDE-COMMIT');
  if (result.toolName === 'run_command' && result.ok) {
    const pwd = (result.result as { stdout?: string }).stdout?.trim() ?? '';
    if (pwd !== '') expect(isInsideRoot(realRoot, pwd)).toBe(true);
  }
}

describe('random path strings never escape the root', () => {
  it('through the file tools', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...FILE_CALLS), pathString, async (build, path) => {
        neverLeaks(await call(...build(path)));
      }),
      { numRuns: 300 },
    );
  });

  it('through git_inspect and run_command', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PROCESS_CALLS), pathString, async (build, path) => {
        neverLeaks(await call(...build(path)));
      }),
      { numRuns: 60 },
    );
  });

  it('the same calls succeed inside the root and would show the outside, so the property bites', async () => {
    const inside: [number, string][] = [
      [0, 'notes.txt'],
      [1, 'notes.txt'],
      [2, 'src'],
      [3, 'src/main.ts'],
      [4, '.'],
    ];
    for (const [index, path] of inside) {
      const result = await call(
        ...(FILE_CALLS[index] as (path: string) => [string, JsonObject])(path),
      );
      expect(result.ok).toBe(true);
    }
    for (const build of PROCESS_CALLS) expect((await call(...build('.'))).ok).toBe(true);
    const unscoped = createDispatcher({
      registry: createToolRegistry(readTools({ root: outside })),
    });
    const secret = await unscoped.dispatch({
      id: 's',
      name: 'read_file',
      arguments: { path: 'secret.txt' },
    });
    expect(() => neverLeaks(secret)).toThrow();
  });
});
