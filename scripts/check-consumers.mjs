// Installs the packed packages the way users do, into clean consumer projects, and type-checks
// their public types strictly (`skipLibCheck: false`):
// - the core alone, every subpath imported;
// - each integration package with only what it declares (the core, its workspace dependencies and
//   its required peers, at the ranges it declares);
// - the core and the framework adapters beside the frameworks' own latest releases
//   (@openai/agents, ai, LangGraph), which must install with no resolution error.
// Needs the built packages (`npm run build`) and the npm registry. Run by .ci/run.
//
//   node scripts/check-consumers.mjs [scenario …]     (default: all; names as printed)
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const TOOLING = ['typescript@~6.0.3', '@types/node@^22'];
const FRAMEWORKS = ['@openai/agents', 'ai', '@langchain/langgraph', '@langchain/core'];
/** Scenarios installed at once; each is mostly waiting on the registry. */
const PARALLEL = 3;

const work = mkdtempSync(join(tmpdir(), 'switchyard-consumers-'));
const packs = join(work, 'packs');
mkdirSync(packs);

function sh(command, args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
  });
}

const readManifest = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const core = readManifest(root);
const workspace = new Map(
  readdirSync(join(root, 'packages')).map((dir) => {
    const manifest = readManifest(join(root, 'packages', dir));
    return [manifest.name, manifest];
  }),
);
const tarballOf = (manifest) =>
  join(packs, `${manifest.name.replace(/^@/, '').replace('/', '-')}-${manifest.version}.tgz`);

/** A package's workspace dependencies, transitively. */
function localClosure(name, seen = new Set()) {
  for (const dependency of Object.keys(workspace.get(name).dependencies ?? {})) {
    if (workspace.has(dependency) && !seen.has(dependency)) {
      seen.add(dependency);
      localClosure(dependency, seen);
    }
  }
  return seen;
}

/** Required peers (not the core, not optional), at the range the package declares. */
function requiredPeers(manifest) {
  const optional = manifest.peerDependenciesMeta ?? {};
  return Object.entries(manifest.peerDependencies ?? {})
    .filter(([name]) => name !== core.name && !optional[name]?.optional)
    .map(([name, range]) => `${name}@${range}`);
}

/** The public entries of a manifest as import specifiers. */
function entriesOf(manifest) {
  return Object.keys(manifest.exports ?? {})
    .filter((subpath) => subpath !== './package.json')
    .map((subpath) => manifest.name + subpath.slice(1));
}

const scenarios = [
  { name: 'switchyard alone', install: [tarballOf(core)], imports: entriesOf(core) },
  ...[...workspace.values()]
    .filter((manifest) => entriesOf(manifest).length > 0)
    .map((manifest) => ({
      name: `${manifest.name} with what it declares`,
      install: [
        tarballOf(core),
        tarballOf(manifest),
        ...[...localClosure(manifest.name)].map((name) => tarballOf(workspace.get(name))),
        ...requiredPeers(manifest),
      ],
      imports: entriesOf(manifest),
    })),
  {
    name: 'the adapters beside @openai/agents, ai and LangGraph',
    install: [
      tarballOf(core),
      ...[
        '@switchyard/openai',
        '@switchyard/openai-agents',
        '@switchyard/ai-sdk',
        '@switchyard/langchain',
      ].map((name) => tarballOf(workspace.get(name))),
      ...FRAMEWORKS,
    ],
    imports: [
      core.name,
      '@switchyard/openai',
      '@switchyard/openai-agents',
      '@switchyard/ai-sdk',
      '@switchyard/langchain',
    ],
  },
];

async function check(scenario, index) {
  const dir = join(work, `consumer-${index}`);
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        skipLibCheck: false,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2023',
        noEmit: true,
        types: ['node'],
      },
      include: ['index.ts'],
    }),
  );
  writeFileSync(
    join(dir, 'index.ts'),
    `${scenario.imports.map((specifier, i) => `import * as m${i} from '${specifier}';`).join('\n')}\nexport const modules = [${scenario.imports.map((_, i) => `m${i}`).join(', ')}];\n`,
  );
  const install = await sh(
    'npm',
    ['install', '--no-audit', '--no-fund', '--ignore-scripts', ...scenario.install, ...TOOLING],
    dir,
  );
  if (install.code !== 0)
    return { scenario, ok: false, why: `npm install failed:\n${install.output}` };
  const typecheck = await sh(
    process.execPath,
    [join(dir, 'node_modules/typescript/bin/tsc'), '-p', dir],
    dir,
  );
  // Errors inside a framework's own declarations (say, a type package it forgot to depend on) are
  // theirs, shown but not counted; ours are those in index.ts and in Switchyard's packages.
  const errors = typecheck.output.split('\n').filter((line) => /error TS\d+/.test(line));
  const ours = errors.filter((line) =>
    /^(index\.ts|node_modules\/(switchyard|@switchyard)\/)/.test(line),
  );
  const theirs = errors.length - ours.length;
  if (ours.length > 0 || (typecheck.code !== 0 && errors.length === 0)) {
    return { scenario, ok: false, why: `tsc failed:\n${typecheck.output}` };
  }
  return { scenario, ok: true, note: theirs > 0 ? `${theirs} errors in others' declarations` : '' };
}

const wanted = process.argv.slice(2);
const chosen = scenarios.filter(
  (scenario) => wanted.length === 0 || wanted.includes(scenario.name),
);
const packed = await sh(
  'npm',
  [
    'pack',
    '--ignore-scripts',
    '--silent',
    '--pack-destination',
    packs,
    '--workspaces',
    '--include-workspace-root',
  ],
  root,
);
if (packed.code !== 0) {
  console.error(packed.output);
  process.exit(1);
}
const outcomes = [];
for (let start = 0; start < chosen.length; start += PARALLEL) {
  const batch = chosen.slice(start, start + PARALLEL);
  for (const outcome of await Promise.all(batch.map((scenario, i) => check(scenario, start + i)))) {
    const note = outcome.note ? ` (${outcome.note})` : '';
    console.log(`${outcome.ok ? 'ok  ' : 'FAIL'} ${outcome.scenario.name}${note}`);
    if (!outcome.ok) console.log(outcome.why.split('\n').slice(0, 40).join('\n'));
    outcomes.push(outcome);
  }
}
rmSync(work, { recursive: true, force: true });
process.exit(outcomes.every((outcome) => outcome.ok) ? 0 : 1);
