import { InvalidOptionError } from '../errors.js';
import type { AgentLoopOptions, AgentTurn } from './agent-types.js';

/** The options `agentLoop` derives, checked. */
export interface AgentSettings {
  readonly maxIterations: number;
  readonly maxModelRetries: number;
  readonly retryDelayMs: number;
  /** Whether a turn ends the run under `loopUntilDone`; null when the option is off. */
  readonly loopUntilDone: ((turn: AgentTurn) => boolean) | null;
}

function fail(option: string, message: string): never {
  throw new InvalidOptionError(option, `agentLoop: ${option} ${message}`);
}

function count(value: number | undefined, option: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) fail(option, `must be an integer ≥ ${min}`);
  return value;
}

/** Checks `agentLoop`'s options; throws `InvalidOptionError` naming the first bad one. */
export function checkAgentOptions(options: AgentLoopOptions): AgentSettings {
  if (typeof options !== 'object' || options === null) fail('options', 'must be an object');
  if (typeof options.task !== 'string' || options.task.trim() === '')
    fail('task', 'must be a non-empty string');
  if (typeof options.model?.stream !== 'function')
    fail('model', 'must be a ModelClient (createOpenAIChatModel, createScriptedModel, …)');
  if (typeof options.tools?.modelDefinitions !== 'function')
    fail('tools', 'must be a ToolRegistry (createToolRegistry)');
  if (options.toolSearch !== undefined && typeof options.toolSearch !== 'function')
    fail('toolSearch', "must be a hook: toolSearch({ … }) from '@switchyard/vault'");
  if (options.toolSource !== undefined && typeof options.toolSource?.open !== 'function')
    fail('toolSource', "must be a ToolSource: mcpToolSource([...]) from '@switchyard/mcp'");
  if (options.toolCaller !== undefined && typeof options.toolCaller !== 'function')
    fail('toolCaller', 'must be a function (call, next) => result');
  const { journal } = options;
  if (journal !== undefined) {
    if (typeof journal?.callsBy !== 'function' || typeof journal.modelTurn !== 'function')
      fail('journal', "must be a RunJournal: openRunJournal({ … }) from 'switchyard/journal'");
    if (options.runId !== undefined && options.runId !== journal.runId)
      fail('runId', `must be the journal's run id (${journal.runId}) or left out`);
  }
  const retryDelayMs = options.retryDelayMs ?? 500;
  if (!Number.isFinite(retryDelayMs) || retryDelayMs < 0)
    fail('retryDelayMs', 'must be a number ≥ 0');
  const loop = options.loopUntilDone ?? false;
  return {
    maxIterations: count(options.maxIterations, 'maxIterations', 10, 1),
    maxModelRetries: count(options.maxModelRetries, 'maxModelRetries', 2, 0),
    retryDelayMs,
    loopUntilDone: loop === false ? null : loop === true ? (turn) => turn.done : loop,
  };
}
