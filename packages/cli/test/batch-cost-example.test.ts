// examples/batch-cost: the command its README shows, run through the CLI in a fresh process,
// still prints the recorded summary.txt (so the example and the CLI README cannot drift).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const WORKSPACE = fileURLToPath(new URL('../../../', import.meta.url));
const EXAMPLE = join(WORKSPACE, 'examples/batch-cost');
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/** The README's command: its `switchyard batch …` line, without the redirection. */
function readmeCommand(): string[] {
  const readme = readFileSync(join(EXAMPLE, 'README.md'), 'utf8');
  const line = readme.split('\n').find((text) => text.startsWith('switchyard batch '));
  if (line === undefined) throw new Error('examples/batch-cost/README.md shows no command');
  return line
    .replace(/\s*>.*$/, '')
    .split(/\s+/)
    .slice(1);
}

/** Timing lines compared by shape: their numbers stand for any number. */
function shape(summary: string): string {
  return summary
    .split('\n')
    .map((line) => (/^(latency|wall) /.test(line) ? line.replace(/\d+\.\d+/g, '#') : line))
    .join('\n');
}

describe('the batch-cost example', () => {
  it('prints the recorded summary.txt when run with the README’s command', () => {
    const args = readmeCommand();
    expect(args.slice(0, 2)).toEqual(['batch', 'examples/batch-cost/tasks.jsonl']);
    const child = spawnSync(process.execPath, ['--import', 'tsx', MAIN, ...args], {
      cwd: WORKSPACE,
      env: { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' },
      encoding: 'utf8',
    });
    expect(child.status, child.stderr).toBe(0);
    const recorded = readFileSync(join(EXAMPLE, 'summary.txt'), 'utf8');
    expect(shape(child.stderr)).toBe(shape(recorded));
    const lines = child.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    const research = lines.map((line) => JSON.parse(line)).find((line) => line.id === 'research');
    expect(research.toolCost).toMatchObject({ calls: 3 });
    expect(research.toolCost.toolUsd).toBeCloseTo(0.025, 10);
  });

  it('is what the CLI README shows, command and summary', () => {
    const readme = readFileSync(join(WORKSPACE, 'packages/cli/README.md'), 'utf8');
    const example = readFileSync(join(EXAMPLE, 'README.md'), 'utf8');
    const command = example.split('\n').find((line) => line.startsWith('switchyard batch '));
    expect(readme).toContain(`\n${command}\n`);
    const recorded = readFileSync(join(EXAMPLE, 'summary.txt'), 'utf8').trim();
    expect(readme).toContain(`\`\`\`text\n${recorded}\n\`\`\``);
  });
});
