import { afterAll, describe, expect, it } from 'vitest';
import { type CommandTools, commandTools } from '../src/command-tools.js';
import { preserveFilteredOutput } from '../src/filtered-output.js';
import { callTool, hostFixture } from './host-fixture.js';

const CAPTURE = '/tmp/out dir/producer.log';

describe('preserveFilteredOutput', () => {
  it.each([
    ['seq 1 100 | tail -5', "seq 1 100 | tee '/tmp/out dir/producer.log' 2>/dev/null | tail -5"],
    [
      'npm test | grep -i fail | wc -l',
      "npm test | tee '/tmp/out dir/producer.log' 2>/dev/null | grep -i fail | wc -l",
    ],
    [
      "find . -name '*.ts' | sort",
      "find . -name '*.ts' | tee '/tmp/out dir/producer.log' 2>/dev/null | sort",
    ],
  ])('rewrites %j to tee the producer', (command, rewritten) => {
    expect(preserveFilteredOutput(command, CAPTURE)).toBe(rewritten);
  });

  it.each([
    'seq 1 100',
    'seq 1 100 | head -5',
    'yes | grep -q y',
    'yes | grep -m1 y',
    'seq 10 | grep --max-count=1 1',
    'echo $(seq 10) | tail -1',
    'echo `seq 10` | tail -1',
    '(seq 10) | tail -1',
    'seq 10 > file | tail -1',
    'seq 10 | tail -1 &',
    'seq 10 || true | wc',
    'seq 10; ls | wc',
    'echo "$HOME" | wc',
    "echo 'unbalanced | wc",
    'seq 10 | | wc',
    'seq 10 | awk "{print}"',
  ])('leaves %j alone', (command) => {
    expect(preserveFilteredOutput(command, CAPTURE)).toBeNull();
  });

  it('quotes a capture path holding a single quote', () => {
    expect(preserveFilteredOutput('ls | wc', "/tmp/it's/p.log")).toBe(
      "ls | tee '/tmp/it'\\''s/p.log' 2>/dev/null | wc",
    );
  });
});

describe('run_command with preserveFilteredOutput', () => {
  const sets: CommandTools[] = [];
  afterAll(() => Promise.all(sets.map((set) => set.close())));
  const setUp = (preserve?: boolean) => {
    const { root } = hostFixture();
    const set = commandTools({
      cwd: root,
      allowShell: true,
      ...(preserve === undefined ? {} : { preserveFilteredOutput: preserve }),
    });
    sets.push(set);
    return set;
  };

  it('shows the filtered output and keeps the producer’s whole output readable', async () => {
    const set = setUp();
    const result = await callTool(set.tools, 'run_command', { command: 'seq 1 1000 | tail -2' });
    const value = result.result as {
      stdout: string;
      output_capture: { path: string; bytes: number };
    };
    expect(value.stdout).toBe('999\n1000\n');
    expect(value.output_capture.bytes).toBeGreaterThan(3000);
    const full = await callTool(set.tools, 'read_command_output', {
      path: value.output_capture.path,
      length: 8,
    });
    expect(full.result).toMatchObject({ content: '1\n2\n3\n4\n' });
    const argv = await callTool(set.tools, 'run_command', {
      argv: ['sh', '-c', 'seq 1 50 | wc -l'],
    });
    expect(argv.result).toMatchObject({ stdout: '50\n', output_capture: { bytes: 141 } });
  });

  it('leaves early-stopping filters and a disabled option alone', async () => {
    const set = setUp();
    const head = await callTool(set.tools, 'run_command', { command: 'seq 1 1000 | head -1' });
    expect(head.result).not.toHaveProperty('output_capture');
    const off = setUp(false);
    const tail = await callTool(off.tools, 'run_command', { command: 'seq 1 10 | tail -1' });
    expect(tail.result).toMatchObject({ stdout: '10\n' });
    expect(tail.result).not.toHaveProperty('output_capture');
  });
});
