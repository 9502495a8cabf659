import { agentLoop } from '../agent/agent-loop.js';
import type { AgentEvent, AgentRun } from '../agent/agent-types.js';
import type { DispatcherOptions } from '../dispatch/dispatcher.js';
import { toWireCategory } from '../dispatch/error-taxonomy.js';
import { errorMessage } from '../errors.js';
import type { ModelClient } from '../providers/model-client.js';
import type { ToolRegistry } from '../tools/tool-registry.js';

/** What `switchyard agent` needs, resolved from its arguments. */
export interface AgentCommandOptions {
  readonly task: string;
  readonly model: ModelClient;
  readonly tools: ToolRegistry;
  readonly dispatcher?: Omit<DispatcherOptions, 'registry' | 'caller'>;
  readonly maxIterations?: number;
  readonly maxConcurrentTools?: number;
  readonly eager: boolean;
  readonly json: boolean;
  readonly signal?: AbortSignal;
  readonly out: NodeJS.WritableStream;
  readonly err: NodeJS.WritableStream;
}

function preview(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
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
    model,
    tools: options.tools,
    dispatcher: options.dispatcher,
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
      `${JSON.stringify({
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
