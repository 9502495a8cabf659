// Builds the workspace: the core's dist/ (type declarations from tsc, JavaScript bundled by
// Rolldown, one file per entry point), then each package under packages/ with tsc, in dependency
// order. `node scripts/build.mjs core` builds the core alone. Node's ESM loader pays for every module it walks: plain tsc output made importing the
// root walk ~150 of our own files, and even an esbuild split left it 45 chunks (esbuild cuts a
// chunk per set of entries sharing code, and has no say over it). Here the root loads itself and
// a few chunks; see "The build" in CONTRIBUTING.md.
//
// Entries, each at its own dist path so package.json stays valid:
// - every `exports` subpath and the `bin` CLI, read from package.json (a new subpath is bundled
//   without touching this file);
// - every module found by path at run time, by its `moduleUrl('…')` call (worker entries).
// Code shared between entries goes to dist/chunks/, so every class has one instance whichever
// subpaths a program imports, and `instanceof` holds across them.
import { spawn } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** `./dist/a/b.js` → `a/b` (the entry's name, which is its path under both src/ and dist/). */
function entryName(distPath) {
  const match = /^(?:\.\/)?dist\/(.+)\.js$/.exec(distPath);
  if (match === null) throw new Error(`build: ${distPath} is not a .js file under dist/`);
  return match[1];
}

function* sourceFiles(dir) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

/** Modules found by path at run time: each `moduleUrl('x/y')` of src/package-files.ts. */
function runTimeEntries() {
  const found = new Set();
  for (const file of sourceFiles('src')) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const [, name] of text.matchAll(/moduleUrl\('([^']+)'\)/g)) found.add(name);
  }
  return [...found];
}

const publicEntries = Object.values(manifest.exports)
  .map((target) => (typeof target === 'string' ? target : target.default))
  .filter((target) => target.endsWith('.js'))
  .map(entryName);
const runTime = runTimeEntries();
const input = Object.fromEntries(
  [...publicEntries, ...runTime].map((name) => [name, join(root, 'src', `${name}.ts`)]),
);

/**
 * The root's code goes into one chunk, `core`, rather than a chunk per set of entries sharing it:
 * whoever imports the root loads all of it anyway. The part of it that the light entries (worker
 * threads) import too goes first into its own chunk, `base`, so a worker's start does not load the
 * whole core. The rest falls to ordinary splitting.
 */
function chunkGroups() {
  const core = new Set();
  const base = new Set();
  const plugin = {
    name: 'switchyard-chunk-groups',
    buildEnd() {
      const closure = (id, seen = new Set()) => {
        if (seen.has(id)) return seen;
        seen.add(id);
        for (const next of this.getModuleInfo(id)?.importedIds ?? []) closure(next, seen);
        return seen;
      };
      const light = new Set();
      for (const name of runTime) closure(input[name], light);
      for (const id of closure(input.index)) (light.has(id) ? base : core).add(id);
    },
  };
  // A group takes its modules' imports along, so `base` (closed under imports) is cut first.
  const groups = [
    { name: 'base', test: (id) => base.has(id), priority: 2 },
    { name: 'core', test: (id) => core.has(id), priority: 1 },
  ];
  return { plugin, groups };
}

/** `tsc -p <project>` in a child process; its declaration maps point at the shipped src/. */
function tsc(project) {
  const bin = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, '-p', project], { cwd: root, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`tsc -p ${project} exited ${code}`)),
    );
  });
}

/**
 * Makes a package's `bin` files executable: npm sets the mode when it installs a package, but in
 * the workspace `node_modules/.bin` links straight to the build, where tsc leaves files 0644.
 */
function markBinsExecutable(dir) {
  const { bin } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const files = typeof bin === 'string' ? [bin] : Object.values(bin ?? {});
  for (const file of files) chmodSync(join(dir, file), 0o755);
}

/**
 * The packages under packages/, each after the workspace packages it depends on: a package's
 * declarations read those of its dependencies from their dist/.
 */
function packagesInBuildOrder() {
  const dir = join(root, 'packages');
  const manifests = new Map(
    readdirSync(dir).map((name) => [
      name,
      JSON.parse(readFileSync(join(dir, name, 'package.json'), 'utf8')),
    ]),
  );
  const byPackageName = new Map([...manifests].map(([name, m]) => [m.name, name]));
  const ordered = [];
  const visit = (name, path) => {
    if (ordered.includes(name)) return;
    if (path.includes(name)) throw new Error(`build: packages depend on each other: ${path}`);
    const m = manifests.get(name);
    for (const dependency of Object.keys({ ...m.dependencies, ...m.devDependencies })) {
      const local = byPackageName.get(dependency);
      if (local !== undefined) visit(local, [...path, name]);
    }
    ordered.push(name);
  };
  for (const name of manifests.keys()) visit(name, []);
  return ordered;
}

/**
 * Fails on chunks that import each other in a ring: there one chunk's code can run before the
 * chunk it imports has defined what it uses ("X is not a constructor" at import time).
 */
function checkNoChunkCycle(output) {
  const imports = new Map(
    output.filter((file) => file.type === 'chunk').map((chunk) => [chunk.fileName, chunk.imports]),
  );
  const state = new Map();
  const visit = (file, path) => {
    state.set(file, 'open');
    for (const next of imports.get(file) ?? []) {
      if (state.get(next) === 'open') {
        throw new Error(`build: chunks import each other: ${[...path, next].join(' → ')}`);
      }
      if (!state.has(next)) visit(next, [...path, next]);
    }
    state.set(file, 'done');
  };
  for (const file of imports.keys()) if (!state.has(file)) visit(file, [file]);
}

rmSync(join(root, 'dist'), { recursive: true, force: true });
const typesDone = tsc('tsconfig.build.json');
const { plugin, groups } = chunkGroups();
const bundle = await rolldown({
  cwd: root,
  input,
  platform: 'node',
  tsconfig: join(root, 'tsconfig.build.json'),
  // Dependencies stay imports: users' installs resolve them (and share them with their own code).
  external: (id, _importer, isResolved) => !isResolved && !id.startsWith('.') && !isAbsolute(id),
  plugins: [plugin],
});
const { output } = await bundle.write({
  dir: join(root, 'dist'),
  format: 'esm',
  entryFileNames: '[name].js',
  chunkFileNames: 'chunks/[name]-[hash].js',
  codeSplitting: { groups },
  // Error classes name themselves after their class (`new.target.name`): a bundler renaming two
  // same-named bindings must not change what users see.
  keepNames: true,
  // Maps point at src/, which the package ships ("files"), so they carry no copy of the sources.
  sourcemap: true,
  sourcemapExcludeSources: true,
});
await bundle.close();
checkNoChunkCycle(output);
await typesDone;
console.log(`built the core: ${Object.keys(input).length} entries into dist/`);

if (process.argv[2] !== 'core') {
  for (const name of packagesInBuildOrder()) {
    rmSync(join(root, 'packages', name, 'dist'), { recursive: true, force: true });
    await tsc(join('packages', name, 'tsconfig.build.json'));
    markBinsExecutable(join(root, 'packages', name));
  }
  console.log(`built ${packagesInBuildOrder().length} packages`);
}
