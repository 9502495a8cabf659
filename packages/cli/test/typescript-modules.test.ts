// The built `switchyard` command loads users' `.ts` modules with Node's own type stripping (no
// tsx): in fresh processes resolving the build, as a user runs it, against modules on disk.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectMcpServers } from '@switchyard/mcp';
import { createDispatcher } from 'switchyard';
import { describe, expect, it } from 'vitest';
import { BUILT_NODE_OPTIONS } from '../../../test/support/built-node-options.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import { EXIT } from '../src/exit-codes.js';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

/** A tools module whose only TypeScript is types: Node strips them. */
const STRIPPABLE = `interface ShoutArgs { readonly text: string }
const shout = (args: ShoutArgs): string => args.text.toUpperCase();
export const tools = [{
  name: 'shout',
  description: 'Upper-case a text.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  safety: { sideEffectLevel: 'none' as const },
  handler: shout,
}];
`;
/** The same tools with an enum: syntax Node would have to transform, which it does not. */
const WITH_ENUM = `enum Loudness { Loud = '!' }
export const tools = [{
  name: 'shout',
  description: 'Upper-case a text.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  safety: { sideEffectLevel: 'none' as const },
  handler: (args: { text: string }) => args.text.toUpperCase() + Loudness.Loud,
}];
`;

function moduleOnDisk(source: string): string {
  const path = join(tempDir('switchyard-ts-module-'), 'tools.ts');
  writeFileSync(path, source);
  return path;
}

function builtCli(args: string[]) {
  const child = spawnSync(process.execPath, [MAIN, ...args], {
    env: { ...process.env, NODE_OPTIONS: BUILT_NODE_OPTIONS },
    encoding: 'utf8',
  });
  return { code: child.status, out: child.stdout, err: child.stderr };
}

function batchFile(): string {
  const path = join(tempDir('switchyard-ts-batch-'), 'batch.jsonl');
  writeFileSync(path, '[{"id":"s1","name":"shout","arguments":{"text":"hi"}}]\n');
  return path;
}

describe('users’ TypeScript modules in the built command', () => {
  it('runs --tools x.ts without tsx', () => {
    const run = builtCli([
      'run',
      batchFile(),
      '--tools',
      moduleOnDisk(STRIPPABLE),
      '--json',
      '--no-workers',
    ]);
    expect(run.code, run.err).toBe(EXIT.ok);
    const [record] = run.out.trim().split('\n');
    expect(JSON.parse(record ?? '')).toMatchObject({ toolName: 'shout', ok: true, result: 'HI' });
  });

  it('serves `mcp serve ./x.ts` without tsx', async () => {
    const tools = moduleOnDisk(STRIPPABLE);
    const mcp = await connectMcpServers([
      {
        name: 'cli',
        transport: 'stdio',
        command: process.execPath,
        args: [MAIN, 'mcp', 'serve', tools],
        env: { NODE_OPTIONS: BUILT_NODE_OPTIONS },
      },
    ]);
    try {
      const dispatcher = createDispatcher({ registry: mcp.registry, executors: [mcp.executor] });
      const result = await dispatcher.dispatch({
        id: 'm1',
        name: 'cli__shout',
        arguments: { text: 'hi' },
      });
      expect(result).toMatchObject({ ok: true });
      expect(JSON.stringify(result.result)).toContain('HI');
    } finally {
      await mcp.close();
    }
  });

  it('refuses a module with an enum, exit 3, saying what loads it', () => {
    const tools = moduleOnDisk(WITH_ENUM);
    for (const args of [
      ['run', batchFile(), '--tools', tools, '--no-workers'],
      ['mcp', 'serve', tools],
    ]) {
      const refused = builtCli(args);
      expect(refused.code).toBe(EXIT.input);
      expect(refused.err).toContain('TypeScript enum is not supported in strip-only mode');
      expect(refused.err).toContain('--experimental-transform-types');
      expect(refused.err).toContain('--import tsx');
    }
  });
});
