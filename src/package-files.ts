import { existsSync, readFileSync } from 'node:fs';

/**
 * Where Switchyard's own files are. The built package is bundled: a module's code may sit in a
 * shared chunk (`dist/chunks/`) rather than at its own path, so a path relative to
 * `import.meta.url` points nowhere. Every file found by path at run time (worker entry modules,
 * data files, package.json) is found here instead, from the package's root.
 */
export interface PackageLayout {
  /** The folder holding Switchyard's package.json. */
  readonly root: URL;
  /** True when running from the TypeScript sources (tests, tsx), false from the built dist/. */
  readonly fromSources: boolean;
  /** `src/` when running from the sources, `dist/` otherwise. */
  readonly code: URL;
  /** The package's version, from package.json. */
  readonly version: string;
}

let layout: PackageLayout | undefined;

/** The package's layout, found once (a walk up from this module to the package.json named "switchyard"). */
export function packageLayout(): PackageLayout {
  layout ??= findLayout(import.meta.url);
  return layout;
}

/**
 * The URL of one of the package's modules by its path under `src/` without extension:
 * `moduleUrl('actors/worker-entry')` is `src/actors/worker-entry.ts` from the sources and
 * `dist/actors/worker-entry.js` built. scripts/build.mjs makes each such module an entry point of
 * the bundle (it finds them by these calls), so keep the argument a string literal.
 */
export function moduleUrl(path: string): URL {
  const { code, fromSources } = packageLayout();
  return new URL(`${path}${fromSources ? '.ts' : '.js'}`, code);
}

function findLayout(here: string): PackageLayout {
  const fromSources = here.endsWith('.ts');
  for (let dir = new URL('.', here); ; ) {
    const manifest = new URL('package.json', dir);
    if (existsSync(manifest)) {
      const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (name === 'switchyard') {
        const code = new URL(fromSources ? 'src/' : 'dist/', dir);
        return { root: dir, fromSources, code, version: String(version) };
      }
    }
    const parent = new URL('..', dir);
    if (parent.href === dir.href) {
      // Not misuse but a broken install: the package's files are not where it was installed.
      throw new Error(`Switchyard cannot find its package.json above ${here}`);
    }
    dir = parent;
  }
}
