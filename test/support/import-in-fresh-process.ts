import { execFileSync } from 'node:child_process';

// A resolve hook that fails the import the moment a heavy optional package is asked for.
const FORBID = (pattern: string) =>
  `data:text/javascript,${encodeURIComponent(
    `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(
  'export async function resolve(s, c, n) { if (/${pattern}/.test(s)) throw new Error("loaded " + s); return n(s, c); }'
));`,
  )}`;

/**
 * Imports `source` (a path from the repository's root) in a fresh process that fails the moment a
 * package matching `forbidden` (a regular expression's source) is asked for; 'imported' when none is.
 */
export function importInFreshProcess(source: string, forbidden: string): string {
  return execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      FORBID(forbidden),
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(source)}); console.log('imported');`,
    ],
    { cwd: new URL('../..', import.meta.url), encoding: 'utf8', stdio: 'pipe' },
  ).trim();
}
