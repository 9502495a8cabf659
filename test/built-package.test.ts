// The built package (`npm run build`, run by `npm ci` through `prepare`): what users import is
// dist/, bundled by scripts/build.mjs, so its promises are checked there, in fresh processes.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILT_NODE_OPTIONS } from './support/built-node-options.js';
import { tempDir } from './support/temp-dir.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const RECORD = join(ROOT, 'test/fixtures/record-modules.mjs');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  files: string[];
  exports: Record<string, string | { types: string; default: string }>;
};
const ENTRIES = Object.entries(manifest.exports).flatMap(([subpath, target]) =>
  typeof target === 'string' ? [] : [{ subpath, ...target }],
);

function node(args: string[], env: Record<string, string> = {}): string {
  const child = spawnSync(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: BUILT_NODE_OPTIONS, ...env },
    encoding: 'utf8',
  });
  expect(child.status, child.stderr).toBe(0);
  return child.stdout;
}

/**
 * What a fresh process running `args` loaded: third-party packages (ES modules as resolved,
 * CommonJS ones from the require cache) and its own files under dist/, chunk hashes left out.
 */
function loadedBy(args: string[]): { packages: string[]; own: string[] } {
  const log = join(tempDir('switchyard-built-'), 'modules.log');
  writeFileSync(log, '');
  const cacheOut = join(dirname(log), 'require-cache.json');
  const dumpCache = `import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const { cache } = createRequire(${JSON.stringify(`${ROOT}/`)});
process.on('exit', () => writeFileSync(${JSON.stringify(cacheOut)}, JSON.stringify(Object.keys(cache))));`;
  node(
    [
      '--import',
      RECORD,
      '--import',
      `data:text/javascript,${encodeURIComponent(dumpCache)}`,
      ...args,
    ],
    {
      MODULE_LOG: log,
    },
  );
  const urls = [
    ...readFileSync(log, 'utf8').split('\n'),
    ...(JSON.parse(readFileSync(cacheOut, 'utf8')) as string[]).map(
      (path) => pathToFileURL(path).href,
    ),
  ].filter((url) => url.startsWith('file:'));
  const packages = new Set<string>();
  const own = new Set<string>();
  for (const path of urls.map((url) => fileURLToPath(url))) {
    const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
    if (inPackage?.[1] !== undefined) packages.add(inPackage[1]);
    else if (path.startsWith(DIST)) {
      own.add(relative(DIST, path).replace(/-[\w-]{8}\.js$/, '.js'));
    }
  }
  return { packages: [...packages].sort(), own: [...own].sort() };
}

describe('the built package', () => {
  it('has every file package.json names, and a module for every moduleUrl lookup', () => {
    const named = ENTRIES.flatMap((entry) => [entry.types, entry.default]);
    expect(named.filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
    const lookups = new Set<string>();
    for (const file of readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts')) continue;
      const text = readFileSync(join(ROOT, 'src', file), 'utf8');
      for (const [, path] of text.matchAll(/moduleUrl\('([^']+)'\)/g)) lookups.add(`${path}.js`);
    }
    expect([...lookups].sort()).toEqual(['actors/worker-entry.js']);
    expect([...lookups].filter((file) => !existsSync(join(DIST, file)))).toEqual([]);
  });

  it('loads the root as itself and three chunks, and no dependency', () => {
    // Not a provider SDK, piscina, an MCP SDK, a queue client, nor ajv (loaded on first
    // validation), nor RxJS (loaded when an operator runs or `events$` is first read). The
    // errors and the idempotency key's derivation, which worker threads load too, are `base`.
    expect(loadedBy(['--input-type=module', '-e', "await import('./dist/index.js')"])).toEqual({
      packages: [],
      own: ['chunks/base.js', 'chunks/core.js', 'chunks/rolldown-runtime.js', 'index.js'],
    });
  });

  it('loads RxJS only once a dispatcher is listened to', () => {
    const dispatchOnly = `
      const s = await import('./dist/index.js');
      const d = s.createDispatcher({ registry: s.createToolRegistry([]) });
      await d.dispatch({ id: 'c', name: 'none', arguments: {} });`;
    expect(loadedBy(['--input-type=module', '-e', dispatchOnly]).packages).toEqual([]);
    const listened = `${dispatchOnly}\n d.events$.subscribe(() => {});`;
    expect(loadedBy(['--input-type=module', '-e', listened]).packages).toEqual(['rxjs']);
  });

  it("answers the built CLI's --version without loading the core's chunk or any dependency", () => {
    const cli = join(ROOT, 'packages/cli/dist/main.js');
    const { packages, own } = loadedBy([cli, '--version']);
    expect(packages).toEqual([]);
    expect(own).not.toContain('chunks/core.js');
    expect(own).toContain('errors.js');
    expect(node([cli, '--version'])).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('finds its worker entry from code bundled into a chunk', () => {
    const out = node([
      '--input-type=module',
      '-e',
      `const { createWorkerPool } = await import('./dist/executors.js');
       const { createDispatcher, createToolRegistry, defineTool } = await import('./dist/index.js');
       const pool = createWorkerPool({ maxThreads: 1 });
       const double = defineTool({
         name: 'double', description: 'x', inputSchema: { type: 'object' },
         executor: { kind: 'worker', module: ${JSON.stringify(pathToFileURL(join(ROOT, 'test/fixtures/workers/tools.mjs')).href)}, export: 'echo' },
       });
       const dispatcher = createDispatcher({ registry: createToolRegistry([double]), executors: [pool.executor] });
       const result = await dispatcher.dispatch({ id: 'w', name: 'double', arguments: { n: 2 } });
       await pool.close();
       console.log(result.executor, result.status);`,
    ]);
    expect(out).toBe('worker ok\n');
  });

  it('exports the sources’ names from each entry point, one instance of each value across them', async () => {
    // Each value gets a number on first sight: a value two entry points share has one number.
    const report = node([
      '--input-type=module',
      '-e',
      `const ids = new Map(), out = {};
       for (const [subpath, file] of ${JSON.stringify(ENTRIES.map((entry) => [entry.subpath, entry.default]))}) {
         const module = await import(${JSON.stringify(`${pathToFileURL(ROOT).href}/`)} + file);
         out[subpath] = Object.fromEntries(Object.entries(module).map(([name, value]) => {
           if (!ids.has(value)) ids.set(value, ids.size);
           return [name, ids.get(value)];
         }));
       }
       console.log(JSON.stringify(out));`,
    ]);
    const built = JSON.parse(report) as Record<string, Record<string, number>>;
    const idsByName = new Map<string, Set<number>>();
    for (const entry of ENTRIES) {
      const source = join(
        ROOT,
        entry.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'),
      );
      const names = Object.keys((await import(pathToFileURL(source).href)) as object).sort();
      expect(Object.keys(built[entry.subpath] ?? {}).sort(), entry.subpath).toEqual(names);
      for (const [name, id] of Object.entries(built[entry.subpath] ?? {})) {
        idsByName.set(name, (idsByName.get(name) ?? new Set()).add(id));
      }
    }
    expect([...idsByName].filter(([, ids]) => ids.size > 1).map(([name]) => name)).toEqual([]);
    // Shared names exist (the root re-exports from its subpaths), so the check above has teeth.
    expect(built['./middleware']?.withTimeout).toBe(built['.']?.withTimeout);
  });

  it("throws errors from one subpath that are instances of the root's classes", () => {
    const out = node([
      '--input-type=module',
      '-e',
      `const tools = await import('./dist/tools/index.js');
       const root = await import('./dist/index.js');
       try { tools.defineTool({ name: 'bad name!', description: 'x', inputSchema: { type: 'object' }, handler() {} }); }
       catch (error) { console.log(error instanceof root.ToolDefinitionError, error.name); }`,
    ]);
    expect(out).toBe('true ToolDefinitionError\n');
  });

  it('ships every source a source map or declaration map points at', () => {
    expect(manifest.files).toEqual(expect.arrayContaining(['dist', 'src']));
    const maps = readdirSync(DIST, { recursive: true, encoding: 'utf8' }).filter((file) =>
      file.endsWith('.map'),
    );
    expect(maps.some((file) => file.startsWith('chunks/core-'))).toBe(true);
    const missing: string[] = [];
    for (const file of maps) {
      const map = JSON.parse(readFileSync(join(DIST, file), 'utf8')) as {
        sources: string[];
        sourcesContent?: unknown;
      };
      // The maps carry no copy of the sources: they point at the shipped src/.
      expect(map.sourcesContent, file).toBeUndefined();
      for (const source of map.sources) {
        const path = join(DIST, dirname(file), source);
        if (!path.startsWith(join(ROOT, 'src')) || !existsSync(path))
          missing.push(`${file}: ${source}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("makes Observables of the users' own rxjs", () => {
    // src/rxjs.ts imports RxJS's own modules, not its index: they must be the very classes users
    // import, so rxjs's operators and instanceof accept what Switchyard returns.
    const out = node([
      '--input-type=module',
      '-e',
      `const { Observable, Subject, of } = await import('rxjs');
       const root = await import('./dist/index.js');
       const dispatcher = root.createDispatcher({ registry: root.createToolRegistry([]) });
       const results = root.dispatchCalls({ dispatcher })(of());
       console.log(results instanceof Observable, dispatcher.events$ instanceof Observable);`,
    ]);
    expect(out).toBe('true true\n');
  });
});
