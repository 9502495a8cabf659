import { renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { InvalidOptionError } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { openScoped } from '../src/open-scoped.js';
import { createRootScope, isInsideRoot, type RootScope } from '../src/root-scope.js';
import { hostFixture } from './host-fixture.js';

const { root, outside } = hostFixture();
const scope = createRootScope(root);

async function outcome(path: unknown) {
  try {
    return await scope.resolve(path, 'filesystem.read');
  } catch (error) {
    return { missing: (error as Error).message };
  }
}

describe('createRootScope', () => {
  it.each([
    ['..', 'outside the root'],
    ['../outside/secret.txt', 'outside the root'],
    ['src/../../outside/secret.txt', 'outside the root'],
    ['/etc/passwd', 'outside the root'],
    ['escape/secret.txt', 'through a symlink'],
    ['secret-link.txt', 'through a symlink'],
    ['notes.txt\u0000.png', 'NUL or control'],
    ['bad\ud800name', 'well-formed'],
    ['', 'empty'],
  ])('refuses %j with a typed denial', async (path, reason) => {
    const resolved = await scope.resolve(path, 'filesystem.read');
    expect(resolved.ok).toBe(false);
    if (resolved.ok) return;
    expect(resolved.denial.gate).toBe('arg_constraint');
    expect(resolved.denial.capability).toBe('filesystem.read');
    expect(resolved.denial.deniedPaths).toEqual([path]);
    expect(resolved.denial.reason).toContain(reason);
  });

  it('accepts paths inside the root, absolute ones and links that stay inside', async () => {
    expect(await scope.resolve('src/../notes.txt', 'x')).toMatchObject({
      ok: true,
      relative: 'notes.txt',
    });
    expect(await scope.resolve(join(root, 'src'), 'x')).toMatchObject({
      ok: true,
      relative: 'src',
    });
    expect(await scope.resolve('inner-link.txt', 'x')).toMatchObject({
      ok: true,
      relative: 'notes.txt',
    });
    expect(await scope.resolve('.', 'x')).toMatchObject({ ok: true, relative: '.' });
  });

  it('reports a missing path inside the root as an error, not a denial', async () => {
    await expect(scope.resolve('nope.txt', 'x')).rejects.toThrow(
      'no such file or directory: nope.txt',
    );
  });

  it('throws InvalidOptionError for a root that does not exist', () => {
    expect(() => createRootScope(join(root, 'missing'))).toThrow(InvalidOptionError);
  });

  it('never resolves a random path string outside the root', async () => {
    const piece = fc.constantFrom(
      '..',
      '.',
      'src',
      'escape',
      'secret-link.txt',
      'inner-link.txt',
      'nested',
      '',
      '/',
      '\\',
      '%2e%2e',
      '\u0000',
      '\u2025',
      outside,
      '~',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(piece, fc.string()), { maxLength: 8 }),
        fc.boolean(),
        async (pieces, absolute) => {
          const path = `${absolute ? '/' : ''}${pieces.join('/')}`;
          const result = await outcome(path);
          if ('ok' in result && result.ok) expect(isInsideRoot(scope.root, result.real)).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });
});

/** A scope that swaps `swap` for a link out of the root right after the check, before the open. */
function racingScope(inner: RootScope, swap: { path: string; target: string }): RootScope {
  return {
    root: inner.root,
    contains: inner.contains,
    async resolve(path, capability) {
      const resolved = await inner.resolve(path, capability);
      renameSync(swap.path, `${swap.path}.moved`);
      symlinkSync(swap.target, swap.path);
      return resolved;
    },
  };
}

describe('openScoped', () => {
  it('refuses a file swapped for a link out of the root between check and open', async () => {
    const { root: raceRoot, outside: raceOutside } = hostFixture();
    const racing = racingScope(createRootScope(raceRoot), {
      path: join(raceRoot, 'notes.txt'),
      target: join(raceOutside, 'secret.txt'),
    });
    const opened = await openScoped(racing, 'notes.txt', { capability: 'filesystem.read' });
    expect(opened.ok).toBe(false);
  });

  it('refuses a directory on the path swapped for a link out of the root', async () => {
    const { root: raceRoot, outside: raceOutside } = hostFixture();
    const raceScope = createRootScope(raceRoot);
    // The nested directory becomes a link to a directory outside holding the same file name.
    const racing = {
      root: raceScope.root,
      contains: raceScope.contains,
      async resolve(path: unknown, capability: string) {
        const resolved = await raceScope.resolve(path, capability);
        renameSync(join(raceRoot, 'src', 'nested'), join(raceRoot, 'moved'));
        renameSync(join(raceOutside), join(raceRoot, '..', 'outside-real'));
        symlinkSync(join(raceRoot, '..', 'outside-real'), join(raceRoot, 'src', 'nested'));
        renameSync(
          join(raceRoot, 'moved', 'deep.txt'),
          join(raceRoot, '..', 'outside-real', 'deep.txt'),
        );
        return resolved;
      },
    } satisfies RootScope;
    const opened = await openScoped(racing, 'src/nested/deep.txt', {
      capability: 'filesystem.read',
    });
    expect(opened.ok).toBe(false);
  });
});
