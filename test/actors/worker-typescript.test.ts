// Worker tools whose module is a user's `.ts` file load in the worker threads with Node's own type
// stripping, no tsx. Checked on the build in fresh processes: the tests' own workers run the
// sources through tsx, which would load any TypeScript.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILT_NODE_OPTIONS } from '../support/built-node-options.js';
import { tempDir } from '../support/temp-dir.js';

const HOST = fileURLToPath(
  new URL('../fixtures/workers/typescript-tool-host.mjs', import.meta.url),
);

function toolModule(source: string): string {
  const path = join(tempDir('switchyard-ts-worker-'), 'shout.ts');
  writeFileSync(path, source);
  return path;
}

/** The result of one `shout` call on a worker running `module`. */
function callShout(module: string, execArgv?: readonly string[]): Record<string, unknown> {
  const child = spawnSync(
    process.execPath,
    [HOST, module, ...(execArgv === undefined ? [] : [JSON.stringify(execArgv)])],
    { env: { ...process.env, NODE_OPTIONS: BUILT_NODE_OPTIONS }, encoding: 'utf8' },
  );
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout) as Record<string, unknown>;
}

const WITH_ENUM = `enum Loudness { Loud = '!' }
export function shout(args: { text: string }): string {
  return args.text.toUpperCase() + Loudness.Loud;
}
`;

describe('worker tools in TypeScript', () => {
  it('runs a .ts tool module on a worker thread without tsx', () => {
    const module = toolModule(`interface ShoutArgs { readonly text: string }
export function shout(args: ShoutArgs): string {
  return args.text.toUpperCase();
}
`);
    expect(callShout(module)).toMatchObject({ ok: true, executor: 'worker', result: 'HI' });
  });

  it('fails a call whose module has an enum, saying what loads it', () => {
    const result = callShout(toolModule(WITH_ENUM));
    expect(result).toMatchObject({ ok: false, executor: 'worker' });
    expect(result.error).toContain('TypeScript enum is not supported in strip-only mode');
    expect(result.error).toContain("execArgv ['--experimental-transform-types']");
  });

  it('runs the enum module with the execArgv the error names', () => {
    const result = callShout(toolModule(WITH_ENUM), ['--experimental-transform-types']);
    expect(result).toMatchObject({ ok: true, result: 'HI!' });
  });
});
