import { PassThrough } from 'node:stream';
import { stdlibTools } from '@switchyard/host-tools';
import { createToolRegistry, InvalidOptionError } from 'switchyard';
import { describe, expect, it } from 'vitest';
import {
  CHAT_PATH,
  chatToolCallStream,
  startOpenAIWireServer,
} from '../../../test/support/openai-wire-server.js';
import { agentCommand, runAgentCommand } from '../src/agent-command.js';
import { chooseModel } from '../src/choose-model.js';
import { demoModel } from '../src/demo-model.js';
import { EXIT } from '../src/exit-codes.js';
import { captureIo } from './cli-io.js';

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
    tools: createToolRegistry(stdlibTools({ workers: false })),
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
      ['math_calc', 'ok'],
    ]);
    expect(out).toContain('- math_calc: {"expression":"(17) * (23)","value":391}');
    expect(out).toContain('- sha256: ');
    expect(err).toContain('switchyard agent: scripted / switchyard-demo');
    expect(err).toContain('→ math_calc {"expression":"(17) * (23)"}');
    expect(err).toMatch(/completed · 2 model turns · 3 tool calls/);
  });

  it('adds the first two numbers when the task does not ask to multiply', async () => {
    const { run } = await runDemo('add 2 and 40', false);
    expect(run.results.at(-1)?.result).toEqual({ expression: '(2) + (40)', value: 42 });
  });

  it('prints the run as one JSON object with --json', async () => {
    const { out, err } = await runDemo('hash me', true);
    const printed = JSON.parse(out) as { status: string; results: { toolName: string }[] };
    expect(printed.status).toBe('completed');
    expect(printed.results.map((r) => r.toolName)).toEqual(['regex_match', 'sha256']);
    expect(err).toBe('');
  });
});

describe('switchyard agent: choosing the model', () => {
  const choice = { task: 't', provider: undefined, model: undefined, baseURL: undefined, env: {} };

  it('uses the scripted demo when no key is set', async () => {
    expect((await chooseModel(choice)).provider).toBe('scripted');
  });

  it('uses OpenAI when OPENAI_API_KEY is set, with SWITCHYARD_MODEL or --model', async () => {
    const env = { OPENAI_API_KEY: 'k', SWITCHYARD_MODEL: 'from-env' };
    expect(await chooseModel({ ...choice, env })).toMatchObject({
      provider: 'openai',
      model: 'from-env',
    });
    expect((await chooseModel({ ...choice, env, model: 'flag' })).model).toBe('flag');
  });

  it('uses Anthropic when only ANTHROPIC_API_KEY is set', async () => {
    expect(await chooseModel({ ...choice, env: { ANTHROPIC_API_KEY: 'k' } })).toMatchObject({
      provider: 'anthropic',
      model: 'claude-sonnet-5-5',
    });
  });

  it.each([
    ['gemini', {}, /must be one of/],
    ['anthropic', { OPENAI_API_KEY: 'k' }, /needs ANTHROPIC_API_KEY/],
    ['openai', {}, /needs OPENAI_API_KEY/],
    ['__proto__', {}, /must be one of/],
  ])('refuses --provider %s', async (provider, env, message) => {
    await expect(chooseModel({ ...choice, provider, env })).rejects.toThrow(
      expect.objectContaining({
        code: InvalidOptionError.CODE,
        option: 'provider',
        message: expect.stringMatching(message),
      }),
    );
  });

  it('talks to the server at --base-url', async () => {
    const server = await startOpenAIWireServer();
    try {
      server.reply(CHAT_PATH, {
        sse: chatToolCallStream([], { text: 'Hello from the server.', finish: 'stop' }),
      });
      const model = await chooseModel({
        ...choice,
        provider: 'openai',
        baseURL: server.baseURL,
        env: { OPENAI_API_KEY: 'test-key' },
      });
      const out = sink();
      const err = sink();
      const run = await runAgentCommand({
        task: 'say hello',
        model,
        tools: createToolRegistry(stdlibTools({ workers: false })),
        eager: true,
        json: false,
        out: out.stream,
        err: err.stream,
      });
      expect(run.status).toBe('completed');
      expect(out.text()).toBe('Hello from the server.\n');
      expect(err.text()).toContain('switchyard agent: openai / gpt-5.1');
      expect(server.requests[0]?.headers.authorization).toBe('Bearer test-key');
    } finally {
      await server.close();
    }
  });
});

describe('switchyard agent: the command', () => {
  it('runs the demo from its arguments and prints the run as JSON; exit 0', async () => {
    const capture = captureIo();
    const code = await agentCommand(['add 2 and 3', '--no-workers', '--json'], capture.io);
    expect(code).toBe(EXIT.ok);
    const run = JSON.parse(capture.out()) as { status: string; results: { result: unknown }[] };
    expect(run.status).toBe('completed');
    expect(run.results.at(-1)?.result).toEqual({ expression: '(2) + (3)', value: 5 });
  });

  it('prints its help, and refuses a missing task as a usage error', async () => {
    const capture = captureIo();
    expect(await agentCommand(['--help'], capture.io)).toBe(EXIT.ok);
    expect(capture.out()).toMatch(/^Usage: switchyard agent "<task>"/);
    await expect(agentCommand([], captureIo().io)).rejects.toMatchObject({
      code: 'SY_ERR_CLI_USAGE',
    });
  });
});
