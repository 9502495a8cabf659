import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The import rules of docs/architecture.md, over the core's rooms (folders of src/) and the
// workspace's packages (packages/*), both read from the page's tables: a room or package missing
// there fails the test. `top` is the files directly under src/.
// Entry points list the surface by name; they may re-export any room.
const ENTRY_FILES = new Set(['index.ts', 'executors.ts', 'extension.ts']);

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');
const PACKAGES = join(ROOT, 'packages');
const DOC = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

/** The rows of the doc's tables whose first cell `name` reads: that name, and the last cell. */
function tableRows(name: (firstCell: string) => string | undefined): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of DOC.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const found = name(cells[1] ?? '');
    if (found !== undefined) rows.set(found, cells[cells.length - 2] ?? '');
  }
  return rows;
}

/** The rooms table: each room and the rooms it may import (backticked names, "top files"). */
function documentedRooms(): Map<string, Set<string>> {
  const rows = tableRows((cell) =>
    cell.startsWith('`src/` (top files)') ? 'top' : /^`([a-z]+)\/`$/.exec(cell)?.[1],
  );
  return new Map(
    [...rows].map(([room, mayImport]) => [
      room,
      new Set([
        ...[...mayImport.matchAll(/`([a-z]+)`/g)].map((match) => match[1] ?? ''),
        ...(mayImport.includes('top files') ? ['top'] : []),
      ]),
    ]),
  );
}

interface Manifest {
  readonly name: string;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

function manifestOf(directory: string): Manifest {
  return JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as Manifest;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module specifier a file imports or re-exports, statically or with `import()`. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:^(?:import|export)[^;]*? from |import\()'([^']+)'/gms)].map(
    (match) => match[1] ?? '',
  );
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

const BUILTINS = new Set(builtinModules);
function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || BUILTINS.has(packageNameOf(specifier));
}

function roomOf(file: string): string {
  const parts = relative(SRC, file).split('/');
  // src/errors/ holds the classes src/errors.ts gathers: the same room as the file.
  return parts.length === 1 || parts[0] === 'errors' ? 'top' : (parts[0] ?? 'top');
}

function coreCrossings(): string[] {
  const broken: string[] = [];
  const rooms = documentedRooms();
  const manifest = manifestOf(ROOT);
  const declared = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  for (const file of sourceFiles(SRC)) {
    const room = roomOf(file);
    const allowed = rooms.get(room);
    if (allowed === undefined) {
      broken.push(`${relative(ROOT, file)}: room "${room}" is not in docs/architecture.md`);
      continue;
    }
    const entry = room === 'top' && ENTRY_FILES.has(relative(SRC, file));
    for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) {
        const target = roomOf(resolve(dirname(file), specifier));
        if (!entry && target !== room && !allowed.has(target)) {
          broken.push(`${relative(ROOT, file)} imports ${specifier} (${room} → ${target})`);
        }
      } else if (!isBuiltin(specifier) && !declared.has(packageNameOf(specifier))) {
        broken.push(`${relative(ROOT, file)} imports ${specifier}, not a dependency of the core`);
      }
    }
  }
  return broken;
}

/** The packages table of docs/architecture.md: each package and the workspace packages it may import. */
function documentedPackages(): Map<string, Set<string>> {
  const rows = tableRows((cell) => /^`(@switchyard\/[a-z-]+)`$/.exec(cell)?.[1]);
  return new Map(
    [...rows].map(([name, mayImport]) => [
      name,
      new Set([...mayImport.matchAll(/`(@switchyard\/[a-z-]+)`/g)].map((match) => match[1] ?? '')),
    ]),
  );
}

function packageCrossings(): string[] {
  const broken: string[] = [];
  const documented = documentedPackages();
  for (const directory of readdirSync(PACKAGES)) {
    const root = join(PACKAGES, directory);
    const manifest = manifestOf(root);
    const mayImport = documented.get(manifest.name);
    if (mayImport === undefined) {
      broken.push(`${manifest.name} has no row in docs/architecture.md`);
      continue;
    }
    const declared = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    for (const file of sourceFiles(join(root, 'src'))) {
      const where = relative(ROOT, file);
      for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
        if (isBuiltin(specifier)) continue;
        if (specifier.startsWith('.')) {
          const target = resolve(dirname(file), specifier);
          if (!target.startsWith(join(root, 'src'))) {
            broken.push(`${where} imports ${specifier}, outside its package`);
          }
          continue;
        }
        const name = packageNameOf(specifier);
        if (name.startsWith('@switchyard/') && !mayImport.has(name)) {
          broken.push(`${where} imports ${name}, which docs/architecture.md does not allow`);
        }
        if (!declared.has(name)) {
          broken.push(`${where} imports ${name}, not a dependency of ${manifest.name}`);
        }
      }
    }
  }
  return broken;
}

/** The core's one home for errors: src/errors.ts, and the files it gathers from src/errors/. */
const CORE_ERRORS = join(SRC, 'errors.ts');
const CORE_ERRORS_FOLDER = join(SRC, 'errors');
const ERROR_CLASS = /\bclass\s+(\w+)(?:<[^>]*>)?\s+extends\s+(?:\w+\.)*\w*Error\b/g;

function isErrorHome(file: string): boolean {
  if (file === CORE_ERRORS || file.startsWith(`${CORE_ERRORS_FOLDER}/`)) return true;
  return /^packages\/[^/]+\/src\/errors\.ts$/.test(relative(ROOT, file));
}

/** Error classes defined outside the errors modules, and imports that reach past src/errors.ts. */
function strayErrors(): string[] {
  const stray: string[] = [];
  const packageSources = readdirSync(PACKAGES).flatMap((directory) =>
    sourceFiles(join(PACKAGES, directory, 'src')),
  );
  for (const file of [...sourceFiles(SRC), ...packageSources]) {
    const text = readFileSync(file, 'utf8');
    if (!isErrorHome(file)) {
      for (const match of text.matchAll(ERROR_CLASS)) {
        stray.push(`${relative(ROOT, file)} defines ${match[1]}, outside its errors module`);
      }
    }
    const inFolder = file.startsWith(`${CORE_ERRORS_FOLDER}/`) || file === CORE_ERRORS;
    for (const specifier of specifiers(text)) {
      if (!specifier.startsWith('.') || inFolder) continue;
      if (resolve(dirname(file), specifier).startsWith(`${CORE_ERRORS_FOLDER}/`)) {
        stray.push(`${relative(ROOT, file)} imports ${specifier}; import errors from errors.ts`);
      }
    }
  }
  return stray;
}

describe('the architecture', () => {
  it('defines every error class in its errors module (src/errors.ts, packages/*/src/errors.ts)', () => {
    expect(strayErrors()).toEqual([]);
  });

  it("keeps the core's rooms inside the import rules of docs/architecture.md", () => {
    expect(coreCrossings()).toEqual([]);
  });

  it('keeps each package to the core and the packages docs/architecture.md lets it import', () => {
    expect(packageCrossings()).toEqual([]);
  });

  it('lists every room of the core in docs/architecture.md, and no other', () => {
    // src/errors/ is part of the top files' room (see roomOf), not a room of its own.
    const rooms = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'errors')
      .map((entry) => entry.name);
    expect([...documentedRooms().keys()].sort()).toEqual(['top', ...rooms].sort());
  });

  it('lists every package of the workspace in docs/architecture.md, and no other', () => {
    const names = readdirSync(PACKAGES).map(
      (directory) => manifestOf(join(PACKAGES, directory)).name,
    );
    expect([...documentedPackages().keys()].sort()).toEqual(names.sort());
  });
});
