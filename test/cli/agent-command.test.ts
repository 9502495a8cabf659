import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runAgentCommand } from '../../src/cli/agent-command.js';
import { chooseModel } from '../../src/cli/choose-model.js';
import { demoModel } from '../../src/cli/demo-model.js';
import { exampleTools } from '../../src/cli/example-tools.js';
import { createToolRegistry, InvalidOptionError } from '../../src/index.js';

function sink() {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  return { stream, text: () => chunks.join('') };
}

async function runDemo(task: string, json: boolean) {
  const out = sink();
  const err = sink();
  const run = await runAgentCommand({
    task,
    model: demoModel(task),
    tools: createToolRegistry(exampleTools({ workers: false })),
    eager: true,
    json,
    out: out.stream,
    err: err.stream,
  });
  return { run, out: out.text(), err: err.text() };
}

describe('switchyard agent', () => {
  it('runs the offline demo: tools called, answer on stdout, progress on stderr', async () => {
    const { run, out, err } = await runDemo('what is 17 times 23?', false);
    expect(run.status).toBe('completed');
    expect(run.results.map((r) => [r.toolName, r.status])).toEqual([
      ['regex_match', 'ok'],
      ['sha256', 'ok'],
      ['calculate', 'ok'],
    ]);
    expect(out).toContain('- calculate: 391');
    expect(out).toContain('- sha256: ');
    expect(err).toContain('switchyard agent: scripted / switchyard-demo');
    expect(err).toContain('→ calculate {"op":"multiply","a":17,"b":23}');
    expect(err).toMatch(/completed · 2 model turns · 3 tool calls/);
  });

  it('adds the first two numbers when the task does not ask to multiply', async () => {
    const { run } = await runDemo('add 2 and 40', false);
    expect(run.results.at(-1)?.result).toBe(42);
  });

  it('prints the run as one JSON object with --json', async () => {
    const { out, err } = await runDemo('hash me', true);
    const printed = JSON.parse(out) as { status: string; results: { toolName: string }[] };
    expect(printed.status).toBe('completed');
    expect(printed.results.map((r) => r.toolName)).toEqual(['regex_match', 'sha256']);
    expect(err).toBe('');
  });

  it('uses the scripted demo without a provider and refuses an unknown one', () => {
    const choice = { task: 't', model: undefined, baseURL: undefined, env: {} };
    expect(chooseModel({ ...choice, provider: undefined }).provider).toBe('scripted');
    expect(() => chooseModel({ ...choice, provider: 'gemini' })).toThrow(
      expect.objectContaining({ code: InvalidOptionError.CODE, option: 'provider' }),
    );
  });
});
