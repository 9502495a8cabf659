import type { Executor } from '../dispatch/executor.js';
import type { ToolRegistry } from '../tools/tool-registry.js';

/**
 * Tools that join an agent run from outside the registry it was given, such as MCP servers
 * (`mcpToolSource` in `@switchyard/mcp`). `agentLoop` opens the source before the first turn, asks
 * it between turns whether its tools changed, and closes it when the run ends, however it ends.
 */
export interface ToolSource {
  /**
   * Connects, and returns the run's tools with the source's own added.
   * @throws what connecting threw: the run does not start.
   */
  open(tools: ToolRegistry): Promise<OpenToolSource>;
}

/** An opened tool source: its tools, the executor that runs them, and its lifetime. */
export interface OpenToolSource {
  /** The run's tools plus the source's. */
  readonly registry: ToolRegistry;
  /** Runs the source's tools; registered on the run's dispatcher. */
  readonly executor?: Executor;
  /**
   * The tools again when the source's changed since the last call, else null. A throw keeps the
   * previous tools (the loop reports it as a `tools_refreshed` event with `error`).
   */
  refreshed(): Promise<ToolRegistry | null>;
  /**
   * Closes the source (its connections, processes); the loop calls it once, however the run ends.
   */
  close(): Promise<void>;
}
