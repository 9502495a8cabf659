import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../test/support/free-port.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import { runBenchBinderCommand } from '../src/bench-binder-command.js';

function capture() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  return { stream, text: () => text };
}

async function run(args: string[]) {
  const stdout = capture();
  const stderr = capture();
  const code = await runBenchBinderCommand(args, {
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: {},
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

describe('switchyard bench binder', () => {
  it('runs offline with the bundled sample, prints the table and writes results, plots and report', async () => {
    const out = tempDir('bench-binder-');
    const { code, stdout, stderr } = await run([
      '--fake-clock',
      '--budgets',
      '250,1000',
      '--out',
      out,
    ]);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^binder\s+budget ms\s+valid %\s+acc %\s+hit %/);
    expect(stdout).toContain('fast (simulated)');
    expect(stdout).toContain('oracle (reference)');
    expect(stdout).toContain('virtual clock');
    const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
    expect(results).toMatchObject({ version: 1, budgetsMs: [250, 1000], dataset: { cases: 48 } });
    expect(results.rows).toHaveLength(6);
    for (const file of ['accuracy-vs-budget.svg', 'latency-cdf.svg']) {
      const svg = readFileSync(join(out, file), 'utf8');
      expect(svg).toMatch(/^<svg /);
      expect(svg).toContain('slow (simulated)');
    }
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('<svg');
    expect(html).not.toContain('<script');
  });

  it('reads a data file and takes binders, warm-up and concurrency from the command line', async () => {
    const data = join(tempDir('bench-data-'), 'cases.jsonl');
    const sample = readFileSync(
      new URL('../../binder-bench/data/bfcl-sample.jsonl', import.meta.url),
      'utf8',
    );
    writeFileSync(data, sample.split('\n').slice(0, 3).join('\n'));
    const { code, stdout } = await run([
      '--fake-clock',
      '--data',
      data,
      '--budgets',
      '500',
      '--binder',
      'lexical',
      '--binder',
      'simulated:quick,ms=10',
      '--concurrency',
      '2',
      '--warmup',
      '0',
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain(`3 cases from ${data}`);
    expect(stdout).toMatch(/quick \(simulated\)\s+500\s+100\.0\s+100\.0\s+100\.0\s+3/);
    expect(stdout).toContain('(--out DIR writes');
  });

  it('answers bad usage with exit code 2 and a message naming the option', async () => {
    expect(await run(['--binder', 'gemini:pro'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown kind "gemini"'),
    });
    expect(await run(['--budgets', '250,fast'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--budgets'),
    });
    expect(await run(['--concurrency', '0'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--concurrency'),
    });
    expect(await run(['--frobnicate'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--help'),
    });
    expect(await run(['--data', '/nonexistent/cases.jsonl'])).toMatchObject({
      code: 3,
      stderr: expect.stringContaining('cannot read'),
    });
    expect(await run(['--binder', 'openai:gpt-4.1-nano'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('OPENAI_API_KEY'),
    });
  });

  it('draws a progress bar on a terminal and clears it before the table', async () => {
    const stdout = capture();
    const stderr = capture();
    Object.assign(stderr.stream, { isTTY: true });
    const args = [
      '--fake-clock',
      '--budgets',
      '500',
      '--binder',
      'simulated:quick,ms=10',
      '--warmup',
      '0',
    ];
    expect(
      await runBenchBinderCommand(args, { stdout: stdout.stream, stderr: stderr.stream, env: {} }),
    ).toBe(0);
    expect(stderr.text()).toContain('[########################] 48/48  quick (simulated) @ 500 ms');
    expect(stderr.text().endsWith('\r\u001b[K')).toBe(true);
    const quiet = capture();
    Object.assign(quiet.stream, { isTTY: true });
    await runBenchBinderCommand([...args, '--no-progress'], {
      stdout: stdout.stream,
      stderr: quiet.stream,
      env: {},
    });
    expect(quiet.text()).toBe('');
  });

  it('prints its usage with --help', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('switchyard bench binder [options]');
  });

  it('exits 1 when a binder cannot reach its endpoint, with no budget hit and the reason', async () => {
    const port = await freePort();
    const { code, stdout, stderr } = await run([
      '--binder',
      `openai:m,base=http://127.0.0.1:${port}/v1`,
      '--budgets',
      '1000',
      '--warmup',
      '0',
      '--no-progress',
    ]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^openai:m\s+1000\s+\S+\s+\S+\s+0\.0\s/m);
    expect(stdout).toMatch(/openai:m: 44 of 44 hops failed in transport \(.*Connection error/);
    expect(stderr).toContain('failed in transport');
  });

  it('names a missing plot package once, before the run, and still writes the table and results', async () => {
    const out = tempDir('bench-binder-');
    const both = capture();
    const missing = Object.assign(new Error("Cannot find package 'vega'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const { loadChartingLibrary } = await import('@switchyard/binder-bench');
    const code = await runBenchBinderCommand(
      ['--fake-clock', '--budgets', '250', '--out', out, '--no-progress'],
      {
        stdout: both.stream,
        stderr: both.stream,
        env: {},
        loadCharting: () => loadChartingLibrary(async () => Promise.reject(missing)),
      },
    );
    expect(code).toBe(3);
    const text = both.text();
    expect(text.match(/npm install vega/g)).toHaveLength(1);
    expect(text.indexOf('npm install vega')).toBeLessThan(text.indexOf('budget ms'));
    expect(existsSync(join(out, 'results.json'))).toBe(true);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('No plots');
    expect(existsSync(join(out, 'latency-cdf.svg'))).toBe(false);
  });
});
