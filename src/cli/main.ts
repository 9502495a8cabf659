#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { createWorkerPool } from '../actors/worker-pool.js';
import { createDispatcher } from '../dispatch/dispatcher.js';
import { dispatchTurn } from '../streams/dispatch-turn.js';
import { DEFAULT_MAX_CONCURRENT_TOOLS } from '../streams/turn-run.js';
import { createToolRegistry } from '../tools/tool-registry.js';
import { runAgentCommand } from './agent-command.js';
import { chooseModel } from './choose-model.js';
import { exampleTools } from './example-tools.js';
import { runBatch, type TurnRunner } from './run-command.js';
import { runVerify } from './verify-command.js';

const USAGE = `switchyard — dispatch the tool calls of LLM agents

Usage:
  switchyard run <file.jsonl> [options]   dispatch every planner turn of a batch file
  switchyard agent "<task>" [options]     run an agent on a task (a provider when a key is set,
                                          the built-in scripted model otherwise)
  switchyard verify <receipts.jsonl>      check the hash chain of a receipt log
  switchyard --version | --help

run options:
  --json                 one JSON object per result, then a summary object
  --concurrency <n>      tool calls in flight per turn (maxConcurrentTools, default 8)
  --parallel-turns <n>   turns dispatched at once; output stays in file order (default 1)
  --no-workers           run the sha256 example tool on the main thread
  --no-progress          no progress line on the terminal
  --session <id>         session id stamped on every call (default "batch")

agent options:
  --provider <name>      openai | openai-responses | anthropic | scripted (default: openai
                         when OPENAI_API_KEY is set, anthropic when ANTHROPIC_API_KEY is set,
                         scripted otherwise)
  --model <id>           the provider's model id (also SWITCHYARD_MODEL; default gpt-5.1 or
                         claude-sonnet-5-5)
  --base-url <url>       the provider's base URL (also OPENAI_BASE_URL / ANTHROPIC_BASE_URL)
  --max-iterations <n>   model turns at most (default 10)
  --concurrency <n>      tool calls in flight per turn (default 8)
  --no-eager             start no call before the model has finished its turn
  --no-workers           run the sha256 example tool on the main thread
  --json                 print the run as one JSON object

Each line of the batch file is one planner turn: an array of calls, {"calls": [...]}, an OpenAI
Chat assistant message ({"tool_calls": [...]}), an OpenAI Responses output ({"output": [...]}) or
an Anthropic message ({"content": [...tool_use blocks]}).
`;

function version(): string {
  const manifest = JSON.parse(
    readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
  ) as {
    version: string;
  };
  return manifest.version;
}

function positiveInteger(value: string | undefined, option: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new Error(`--${option} must be a positive integer; got ${value}`);
  return parsed;
}

async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      concurrency: { type: 'string' },
      'parallel-turns': { type: 'string' },
      'no-workers': { type: 'boolean', default: false },
      'no-progress': { type: 'boolean', default: false },
      session: { type: 'string', default: 'batch' },
    },
  });
  const file = positionals[0];
  if (file === undefined)
    throw new Error('switchyard run needs a batch file (or - for standard input)');
  const workers = !values['no-workers'];
  const pool = workers
    ? createWorkerPool({ maxThreads: Math.max(1, availableParallelism() - 1) })
    : undefined;
  const registry = createToolRegistry(exampleTools({ workers }));
  const dispatcher = createDispatcher({
    registry,
    executors: pool === undefined ? [] : [pool.executor],
  });
  const maxConcurrentTools = positiveInteger(
    values.concurrency,
    'concurrency',
    DEFAULT_MAX_CONCURRENT_TOOLS,
  );
  const runTurn: TurnRunner = (calls, turn) =>
    dispatchTurn(calls, { dispatcher, maxConcurrentTools, turn });
  try {
    await runBatch({
      file,
      dispatcher,
      runTurn,
      json: values.json,
      progress: !values['no-progress'],
      parallelTurns: positiveInteger(values['parallel-turns'], 'parallel-turns', 1),
      sessionId: values.session,
      out: process.stdout,
      err: process.stderr,
    });
  } finally {
    await pool?.close();
  }
  return 0;
}

async function agent(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      provider: { type: 'string' },
      model: { type: 'string' },
      'base-url': { type: 'string' },
      'max-iterations': { type: 'string' },
      concurrency: { type: 'string' },
      'no-eager': { type: 'boolean', default: false },
      'no-workers': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const task = positionals.join(' ').trim();
  if (task === '')
    throw new Error('switchyard agent needs a task, e.g. switchyard agent "what is 17 times 23?"');
  const workers = !values['no-workers'];
  const pool = workers
    ? createWorkerPool({ maxThreads: Math.max(1, availableParallelism() - 1) })
    : undefined;
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.once('SIGINT', interrupt);
  try {
    const run = await runAgentCommand({
      task,
      model: chooseModel({
        task,
        provider: values.provider,
        model: values.model,
        baseURL: values['base-url'],
        env: process.env,
      }),
      tools: createToolRegistry(exampleTools({ workers })),
      dispatcher: { executors: pool === undefined ? [] : [pool.executor] },
      maxIterations: positiveInteger(values['max-iterations'], 'max-iterations', 10),
      maxConcurrentTools: positiveInteger(
        values.concurrency,
        'concurrency',
        DEFAULT_MAX_CONCURRENT_TOOLS,
      ),
      eager: !values['no-eager'],
      json: values.json,
      signal: controller.signal,
      out: process.stdout,
      err: process.stderr,
    });
    return run.status === 'completed' || run.status === 'done' ? 0 : 1;
  } finally {
    process.off('SIGINT', interrupt);
    await pool?.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'run':
      return run(rest);
    case 'agent':
      return agent(rest);
    case 'verify': {
      const file = rest[0];
      if (file === undefined)
        throw new Error('switchyard verify needs a receipt log (a .jsonl file)');
      return runVerify(file, process.stdout);
    }
    case '--version':
    case '-v':
      process.stdout.write(`${version()}\n`);
      return 0;
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(USAGE);
      return command === undefined ? 1 : 0;
    default:
      process.stderr.write(`unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`switchyard: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
