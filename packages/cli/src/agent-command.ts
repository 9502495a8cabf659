import { type McpServerConfig, mcpToolSource } from '@switchyard/mcp';
import type {
  AgentEvent,
  AgentRun,
  DispatcherOptions,
  ModelClient,
  ToolCaller,
  ToolRegistry,
} from 'switchyard';
import { agentLoop } from 'switchyard';
import { toWireCategory } from 'switchyard/dispatch';
import { errorMessage } from 'switchyard/extension';
import { DEFAULT_MAX_CONCURRENT_TOOLS } from 'switchyard/streams';
import {
  chooseModel,
  MODEL_OPTIONS,
  providerOf,
  refuseDemoModelWithTools,
} from './choose-model.js';
import { type CommandIo, processIo } from './command-io.js';
import {
  type CommandSpec,
  commandHelp,
  flagOption,
  integerOption,
  parseCommandLine,
  stringOption,
} from './command-line.js';
import { scriptedCalls } from './demo-model.js';
import { UsageError } from './errors.js';
import { EXIT } from './exit-codes.js';
import { jsonText } from './json-text.js';
import { composeLayers } from './load-stack.js';
import { setUpTools, TOOL_OPTIONS } from './tool-setup.js';

/** What `switchyard agent` needs, resolved from its arguments. */
export interface AgentCommandOptions {
  readonly task: string;
  readonly system?: string;
  readonly model: ModelClient;
  readonly tools: ToolRegistry;
  /** The middleware stack. Default none. */
  readonly toolCaller?: ToolCaller;
  readonly dispatcher?: Omit<DispatcherOptions, 'registry' | 'caller'>;
  /** MCP servers the loop connects (their tools join `tools`), refreshes and closes. */
  readonly mcpServers?: readonly McpServerConfig[];
  readonly maxIterations?: number;
  readonly maxConcurrentTools?: number;
  readonly eager: boolean;
  readonly json: boolean;
  readonly signal?: AbortSignal;
  readonly out: NodeJS.WritableStream;
  readonly err: NodeJS.WritableStream;
}

function preview(value: unknown): string {
  const text = typeof value === 'string' ? value : jsonText(value);
  const line = (text ?? '').replace(/\s+/g, ' ');
  return line.length > 100 ? `${line.slice(0, 100)}…` : line;
}

/** One line per thing worth seeing while the agent works (stderr, so stdout stays the answer). */
function progressLine(event: AgentEvent): string | null {
  switch (event.type) {
    case 'turn_started':
      return `· model turn ${event.iteration + 1}${event.attempt > 0 ? ` (retry ${event.attempt})` : ''}`;
    case 'model_retry':
      return `  model failed (${errorMessage(event.error)}); retrying in ${event.delayMs} ms`;
    case 'candidate_promoted':
      return `  → ${event.call.name} ${preview(event.call.arguments)}`;
    case 'candidate_retracted':
      return `  ✗ ${event.toolName || '(call)'} retracted: ${event.reason}`;
    case 'tools_refreshed':
      return event.error === undefined
        ? `  MCP tools changed: ${event.tools.length} now`
        : `  MCP tools could not be listed again (${errorMessage(event.error)})`;
    case 'tool_call_update':
      if (event.status === 'in_progress') return null;
      return `  ${event.status === 'completed' ? '✓' : '✗'} ${event.toolName} ${event.resultStatus} (${event.durationMs.toFixed(1)} ms, ${event.executor ?? 'not run'})`;
    default:
      return null;
  }
}

/** Runs `switchyard agent`: progress on stderr, the answer (or the run as JSON) on stdout. */
export async function runAgentCommand(options: AgentCommandOptions): Promise<AgentRun> {
  const { model, out, err } = options;
  if (!options.json) err.write(`switchyard agent: ${model.provider} / ${model.model}\n`);
  const run = await agentLoop({
    task: options.task,
    ...(options.system === undefined ? {} : { system: options.system }),
    model,
    tools: options.tools,
    ...(options.toolCaller === undefined ? {} : { toolCaller: options.toolCaller }),
    dispatcher: options.dispatcher,
    ...(options.mcpServers === undefined || options.mcpServers.length === 0
      ? {}
      : { toolSource: mcpToolSource(options.mcpServers) }),
    maxIterations: options.maxIterations,
    maxConcurrentTools: options.maxConcurrentTools,
    eager: options.eager,
    signal: options.signal,
    onEvent: options.json
      ? undefined
      : (event) => {
          const line = progressLine(event);
          if (line !== null) err.write(`${line}\n`);
        },
  });
  if (options.json) {
    out.write(
      `${jsonText({
        status: run.status,
        text: run.text,
        iterations: run.iterations,
        usage: run.usage,
        error: run.error === undefined ? null : errorMessage(run.error),
        results: run.results.map((result) => ({
          toolCallId: result.toolCallId,
          toolName: result.toolName,
          status: result.status,
          errorCategory: toWireCategory(result.errorCategory),
          result: result.result,
        })),
      })}\n`,
    );
    return run;
  }
  out.write(`${run.text}\n`);
  const failure = run.error === undefined ? '' : `: ${errorMessage(run.error)}`;
  const { inputTokens, outputTokens } = run.usage;
  const tokens =
    inputTokens + outputTokens === 0 ? '' : ` · ${inputTokens}/${outputTokens} tokens in/out`;
  err.write(
    `\n${run.status}${failure} · ${run.iterations} model turns · ${run.results.length} tool calls${tokens}\n`,
  );
  return run;
}

/** `switchyard agent`'s command line. */
export const AGENT_SPEC: CommandSpec = {
  name: 'agent',
  usage: '"<task>" [options]',
  summary:
    'Run an agent on one task: a provider when a key is set, the built-in scripted model otherwise.\nThe answer goes to stdout, progress to stderr.',
  options: {
    ...MODEL_OPTIONS,
    system: { type: 'string', value: '<text>', description: 'the system prompt' },
    json: { type: 'boolean', description: 'print the run as one JSON object' },
    ...TOOL_OPTIONS,
  },
  notes:
    'Exit codes: 0 the agent answered · 1 it failed, was cut off or cancelled · 2 usage · 3 unreadable module.',
};

/**
 * `switchyard agent "<task>"`: one agent run with the user's tools, middleware and model. Resolves
 * to the exit code; Ctrl-C cancels the run.
 *
 * @throws UsageError for a bad command line, or `--tools` with no model (`refuseDemoModelWithTools`);
 *   InvalidOptionError for a bad provider; InputError for an unreadable module.
 */
export async function agentCommand(args: string[], io: CommandIo = processIo()): Promise<number> {
  const line = parseCommandLine(AGENT_SPEC, args);
  if (line === null) {
    io.stdout.write(commandHelp(AGENT_SPEC));
    return EXIT.ok;
  }
  const task = line.positionals.join(' ').trim();
  if (task === '') {
    throw new UsageError(
      'switchyard agent needs a task, e.g. switchyard agent "what is 17 times 23?"',
    );
  }
  const maxIterations = integerOption(line, 'max-iterations', 10);
  const maxConcurrentTools = integerOption(line, 'concurrency', DEFAULT_MAX_CONCURRENT_TOOLS);
  const choice = {
    task,
    provider: stringOption(line, 'provider'),
    model: stringOption(line, 'model'),
    baseURL: stringOption(line, 'base-url'),
    env: io.env,
  };
  refuseDemoModelWithTools(
    providerOf(choice),
    stringOption(line, 'tools'),
    () => scriptedCalls(task) !== undefined,
  );
  const model = await chooseModel(choice);
  const tools = await setUpTools(line, io.cwd, { mcp: 'configs' });
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.once('SIGINT', interrupt);
  try {
    const system = stringOption(line, 'system');
    const run = await runAgentCommand({
      task,
      model,
      tools: tools.registry,
      ...(system === undefined ? {} : { system }),
      toolCaller: composeLayers(tools.layers),
      dispatcher: { executors: tools.executors },
      mcpServers: tools.mcpServers,
      maxIterations,
      maxConcurrentTools,
      eager: !flagOption(line, 'no-eager'),
      json: flagOption(line, 'json'),
      signal: controller.signal,
      out: io.stdout,
      err: io.stderr,
    });
    if (run.status === 'completed' || run.status === 'done') return EXIT.ok;
    return run.status === 'cancelled' ? EXIT.interrupted : EXIT.failures;
  } finally {
    process.off('SIGINT', interrupt);
    await tools.close();
  }
}
