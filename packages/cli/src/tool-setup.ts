import { availableParallelism } from 'node:os';
import type { McpServerConfig } from '@switchyard/mcp';
import type { ToolCaller, ToolRegistry } from 'switchyard';
import type { Executor, WorkerPool } from 'switchyard/executors';
import type { CommandLine, OptionSpec } from './command-line.js';
import { flagOption, integerOption, listOption, stringOption } from './command-line.js';
import { loadStack } from './load-stack.js';
import { loadTools, needsWorkerPool } from './load-tools.js';
import { MCP_OPTIONS, mcpServersFrom } from './mcp-server-options.js';

/** The options `run`, `agent` and `batch` share: whose tools, which middleware, where receipts go. */
export const TOOL_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  tools: {
    type: 'string',
    value: '<module>',
    description:
      'your tools: a module exporting a registry, an array of tools or a factory (.ts loads as is); default the built-in stdlib tools (math_calc, regex_match, count_characters, sha256, json_query, vision_ocr)',
  },
  stack: {
    type: 'string',
    value: '<module>',
    description: 'your middleware: a module exporting a tool caller, an array of them or a factory',
  },
  'timeout-ms': {
    type: 'string',
    value: '<ms>',
    description: 'time budget of every tool call; the call is aborted past it',
  },
  'dry-run': {
    type: 'boolean',
    description: 'preview every call to a tool that is not read-only instead of running it',
  },
  audit: {
    type: 'string',
    value: '<dir>',
    description: 'write hash-chained receipts, one log per session, under <dir>',
  },
  redact: {
    type: 'string',
    multiple: true,
    value: '<key>',
    description: 'argument key left out of receipts (repeatable)',
  },
  'no-workers': {
    type: 'boolean',
    description: 'run every tool on the main thread (no worker pool)',
  },
  ...MCP_OPTIONS,
};

/** The registry, executors and middleware a command runs with; `close()` ends the pool and logs. */
export interface ToolSetup {
  /** The tools, with the connected MCP servers' `<name>__<tool>`. */
  readonly registry: ToolRegistry;
  readonly pool: WorkerPool | undefined;
  /** What the dispatcher needs besides the inline executor: the pool's, the MCP servers'. */
  readonly executors: readonly Executor[];
  /** `--mcp` / `--mcp-config` servers left for the agent loop to connect (`mcp: 'configs'`). */
  readonly mcpServers: readonly McpServerConfig[];
  /** Outermost first: the audit log, `--timeout-ms`, `--dry-run`, then the `--stack` module's layers. */
  readonly layers: readonly ToolCaller[];
  close(): Promise<void>;
}

/**
 * The built-in tools: the deterministic stdlib set (`math_calc`, `regex_match`,
 * `count_characters`, `sha256` on the worker pool, `json_query`, and `vision_ocr` reading images
 * under the working directory).
 */
async function builtinRegistry(workers: boolean, cwd: string): Promise<ToolRegistry> {
  const [{ createToolRegistry }, { stdlibTools }] = await Promise.all([
    import('switchyard'),
    import('@switchyard/host-tools'),
  ]);
  return createToolRegistry(stdlibTools({ workers, root: cwd }));
}

/**
 * Loads the tools, connects the `--mcp` servers (or, with `mcp: 'configs'`, only reads them for
 * `agentLoop({ toolSource: mcpToolSource(servers) })`), starts the worker pool when a tool needs it, and builds the
 * middleware from `--audit`, `--timeout-ms`, `--dry-run` and `--stack`.
 *
 * @throws InputError when a module or `--mcp-config` cannot be read; UsageError for a bad number
 *   or `--mcp`; InvalidOptionError for a bad server entry; McpConnectError when one cannot be reached.
 */
export async function setUpTools(
  line: CommandLine,
  cwd?: string,
  options: { readonly mcp?: 'connect' | 'configs' } = {},
): Promise<ToolSetup> {
  const workers = !flagOption(line, 'no-workers');
  const toolsPath = stringOption(line, 'tools');
  let registry =
    toolsPath === undefined
      ? await builtinRegistry(workers, cwd ?? process.cwd())
      : await loadTools(toolsPath, cwd);
  const servers = await mcpServersFrom(line, cwd);
  // What can fail on bad input comes before anything that has to be closed again.
  const timeoutMs = integerOption(line, 'timeout-ms', 0, 1);
  const stackPath = stringOption(line, 'stack');
  const stack = stackPath === undefined ? [] : await loadStack(stackPath, cwd);
  const layers: ToolCaller[] = [];
  const closers: (() => Promise<void>)[] = [];
  const executors: Executor[] = [];
  const auditDirectory = stringOption(line, 'audit');
  if (auditDirectory !== undefined) {
    const { withAuditLog } = await import('switchyard');
    const audit = withAuditLog({
      sink: 'local',
      directory: auditDirectory,
      redact: listOption(line, 'redact'),
    });
    layers.push(audit);
    closers.push(() => audit.close());
  }
  if (servers.length > 0 && options.mcp !== 'configs') {
    try {
      const { connectMcpServers } = await import('@switchyard/mcp');
      const mcp = await connectMcpServers(servers, { validator: registry.validator });
      closers.push(() => mcp.close());
      registry = mcp.addTo(registry);
      executors.push(mcp.executor);
    } catch (error) {
      await Promise.allSettled(closers.map((close) => close()));
      throw error;
    }
  }
  if (timeoutMs > 0) {
    const { withTimeout } = await import('switchyard');
    layers.push(withTimeout({ maxMs: timeoutMs, hard: true }));
  }
  if (flagOption(line, 'dry-run')) {
    const { withDryRun } = await import('switchyard');
    const readOnly = registry.list().filter((tool) => tool.safety.readOnly);
    layers.push(withDryRun({ except: readOnly.map((tool) => tool.name) }));
  }
  layers.push(...stack);
  let pool: WorkerPool | undefined;
  if (workers && needsWorkerPool(registry)) {
    const { createWorkerPool } = await import('switchyard/executors');
    pool = createWorkerPool({ maxThreads: Math.max(1, availableParallelism() - 1) });
    closers.unshift(() => pool?.close() ?? Promise.resolve());
    executors.unshift(pool.executor);
  }
  return {
    registry,
    pool,
    executors,
    mcpServers: options.mcp === 'configs' ? servers : [],
    layers,
    async close() {
      const closed = await Promise.allSettled(closers.map((close) => close()));
      const failed = closed.find((outcome) => outcome.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
    },
  };
}
