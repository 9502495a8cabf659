import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { COMMANDS, findCommand } from '../src/command-table.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** The repository's root, as the module URLs a process records start with it. */
const WORKSPACE = new URL('../../../', import.meta.url).href;
const MAIN = join(ROOT, 'src/main.ts');
const RECORD = fileURLToPath(new URL('../../../test/fixtures/record-modules.mjs', import.meta.url));
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
};

/** The CLI from source in a fresh process. */
function cli(args: string[], env: Record<string, string> = {}) {
  const child = spawnSync(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', ...env },
    encoding: 'utf8',
  });
  return { code: child.status, out: child.stdout, err: child.stderr };
}

/** The module URLs (under src/ and node_modules/) a CLI process resolved, and its stdout. */
function modulesLoadedBy(args: string[]): { urls: string[]; out: string } {
  const log = join(tempDir('switchyard-modules-'), 'modules.log');
  writeFileSync(log, '');
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--import', RECORD, MAIN, ...args],
    { cwd: ROOT, env: { ...process.env, MODULE_LOG: log, OPENAI_API_KEY: '' }, encoding: 'utf8' },
  );
  expect(child.status, child.stderr).toBe(0);
  const urls = readFileSync(log, 'utf8')
    .split('\n')
    .filter((url) => url.includes('/src/') || url.includes('/node_modules/'));
  return { urls: [...new Set(urls)], out: child.stdout };
}

describe('the switchyard command line', () => {
  it('prints the version, loading nothing but the command table', () => {
    const { urls, out } = modulesLoadedBy(['--version']);
    expect(out).toBe(`${manifest.version}\n`);
    expect(urls.map((url) => url.replace(WORKSPACE, '')).sort()).toEqual([
      'packages/cli/src/command-table.ts',
      'packages/cli/src/errors.ts',
      'packages/cli/src/exit-codes.ts',
      'packages/cli/src/main.ts',
      'packages/cli/src/report-error.ts',
      'src/errors.ts',
      'src/errors/actor-stopped-error.ts',
      'src/errors/call-errors.ts',
      'src/errors/error-message.ts',
      'src/errors/journal-errors.ts',
      'src/errors/middleware-errors.ts',
      'src/errors/misuse-errors.ts',
      'src/errors/model-error.ts',
      'src/errors/switchyard-error.ts',
    ]);
  });

  it('lists every command for --help, and exits 2 for an unknown command', () => {
    const help = cli(['--help']);
    expect(help.code).toBe(0);
    for (const entry of COMMANDS) expect(help.out).toContain(entry.words.join(' '));
    const unknown = cli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown command "frobnicate"');
  });

  it('exits 2 for an unknown option and 3 for a missing file, saying so on stderr', () => {
    const usage = cli(['run', '../../examples/batch.jsonl', '--frobnicate']);
    expect(usage).toMatchObject({ code: 2, out: '' });
    expect(usage.err).toContain("Unknown option '--frobnicate'");
    const missing = cli(['run', 'no-such-file.jsonl']);
    expect(missing.code).toBe(3);
    expect(missing.err).toContain('cannot read no-such-file.jsonl');
  });

  it('ends quietly when the reader closes the pipe (| head -3)', async () => {
    const lines = Array.from(
      { length: 20_000 },
      (_, index) =>
        `[{"id":"c${index}","name":"math_calc","arguments":{"expression":"${index}+1"}}]`,
    );
    const file = join(tempDir('switchyard-pipe-'), 'big.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', MAIN, 'run', file, '--json', '--no-workers'],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    let read = '';
    // Like `head -3`: read three lines, then close the pipe.
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        read += chunk.toString();
        if (read.split('\n').length > 3) {
          child.stdout.destroy();
          resolve();
        }
      });
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(err).not.toMatch(/EPIPE|Error/);
  });

  it('loads no provider SDK for run, nor for agent with the scripted model', () => {
    const sdk = (urls: readonly string[]) =>
      urls.filter((url) =>
        /node_modules\/(openai|@anthropic-ai)\/|packages\/(openai|anthropic)\//.test(url),
      );
    const run = modulesLoadedBy([
      'run',
      '../../examples/batch.jsonl',
      '--allow-failures',
      '--no-workers',
    ]).urls;
    expect(run.some((url) => url.endsWith('/src/dispatch/dispatcher.ts'))).toBe(true);
    expect(sdk(run)).toEqual([]);
    expect(sdk(modulesLoadedBy(['agent', 'add 1 and 2', '--no-workers']).urls)).toEqual([]);
  });
});

describe('the command table', () => {
  it.each(COMMANDS.map((entry) => [entry.words.join(' '), entry] as const))(
    '"%s --help" prints its usage and exits 0',
    async (words, entry) => {
      const runner = await entry.load();
      const written: string[] = [];
      const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
        written.push(String(chunk));
        return true;
      });
      try {
        expect(await runner(['--help'])).toBe(0);
      } finally {
        spy.mockRestore();
      }
      expect(written.join('')).toMatch(new RegExp(`Usage:\\s+switchyard ${words}`));
    },
  );
});

describe('findCommand', () => {
  const table = [
    { words: ['mcp'], summary: '', load: async () => async () => 0 },
    { words: ['mcp', 'serve'], summary: '', load: async () => async () => 0 },
  ];

  it('picks the longest entry whose words start the arguments, and passes the rest on', () => {
    expect(findCommand(['mcp', 'serve', '--port', '1'], table)).toMatchObject({
      entry: { words: ['mcp', 'serve'] },
      args: ['--port', '1'],
    });
    expect(findCommand(['mcp', 'list'], table)?.args).toEqual(['list']);
    expect(findCommand(['serve'], table)).toBeUndefined();
  });
});
