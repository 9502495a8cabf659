/**
 * An earlier build of the core, to measure beside this one in the same process: `BASELINE` names
 * the folder of a checkout whose dist/ is built (its package.json, dist/ and a node_modules, e.g. a
 * link to this workspace's). Make one from a commit with:
 *
 *   git archive <commit> | tar -x -C /tmp/switchyard-base
 *   ln -s "$PWD/node_modules" /tmp/switchyard-base/node_modules
 *   (cd /tmp/switchyard-base && node scripts/build.mjs core)
 *
 * Undefined when `BASELINE` is unset: the benches then measure this build alone.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

type Core = typeof import('switchyard');
type Middleware = typeof import('switchyard/middleware');

export interface Baseline {
  /** The folder it was loaded from. */
  readonly folder: string;
  readonly core: Core;
  readonly middleware: Middleware;
}

async function load(): Promise<Baseline | undefined> {
  const folder = process.env.BASELINE;
  if (folder === undefined || folder === '') return undefined;
  const root = resolve(folder);
  const from = (path: string) => import(pathToFileURL(join(root, 'dist', path)).href);
  return {
    folder: root,
    core: (await from('index.js')) as Core,
    middleware: (await from('middleware/index.js')) as Middleware,
  };
}

export const baseline = await load();
