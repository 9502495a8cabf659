import type { ExecutionOutcome, ExecutionRequest, Executor } from 'switchyard/executors';
import { errorMessage } from 'switchyard/extension';
import type { SchemaValidator } from 'switchyard/tools';
import { mcpServerFailure, outcomeOfMcpResult } from './mcp-call-result.js';
import type { McpConnection } from './mcp-connection.js';

function ignore(): void {}

/** How many unused signals an executor keeps for later calls (about its calls in flight). */
const IDLE_SIGNALS = 64;

/**
 * The `mcp_server` executor: runs a tool defined by `connectMcpServers` as a `tools/call` on its
 * server, with the tool's original name. The call's signal (timeout, cancellation) sends
 * `notifications/cancelled` and never stops the server; progress becomes `tool_call_progress`
 * events; a protocol or transport failure (a dead server included) yields `mcp_server_error`.
 */
export function createMcpExecutor(
  connections: ReadonlyMap<string, McpConnection>,
  validator: SchemaValidator,
): Executor {
  // Signals no call is using (never aborted), reused by later calls.
  const idle: AbortController[] = [];
  return {
    name: 'mcp_server',
    async execute(request: ExecutionRequest): Promise<ExecutionOutcome> {
      const spec = request.tool.executor;
      if (spec.kind !== 'mcp_server') {
        return mcpServerFailure('?', `tool "${request.tool.name}" is not an MCP tool`);
      }
      const connection = connections.get(spec.server);
      if (connection === undefined) {
        return mcpServerFailure(spec.server, 'no such server is connected');
      }
      const toolName = request.tool.name.slice(spec.server.length + 2);
      if (!request.abortable) {
        try {
          const answer = await connection.callTool(toolName, request.args, {
            onProgress: (progress) => request.emit(progress),
          });
          return outcomeOfMcpResult(request.tool, spec.server, answer, validator);
        } catch (error) {
          return mcpServerFailure(spec.server, errorMessage(error), error);
        }
      }
      // The SDK gets a pooled signal of ours rather than `request.signal`: the first listener on a
      // fresh AbortSignal costs microseconds per call. The race notices the request's abort, and
      // aborting our signal then makes the SDK send `notifications/cancelled`.
      const controller = idle.pop() ?? new AbortController();
      const call = connection.callTool(toolName, request.args, {
        signal: controller.signal,
        onProgress: (progress) => request.emit(progress),
      });
      // When the race below is lost to an abort, the SDK still rejects the call later.
      call.catch(ignore);
      try {
        const answer = await Promise.race([call, request.whenAborted()]);
        // The call settled, so the SDK has removed its listener: the signal is clean again.
        if (idle.length < IDLE_SIGNALS) idle.push(controller);
        return outcomeOfMcpResult(request.tool, spec.server, answer, validator);
      } catch (error) {
        const signal = request.signal;
        if (signal.aborted) {
          controller.abort(signal.reason);
          return { ok: false, error: signal.reason };
        }
        if (idle.length < IDLE_SIGNALS) idle.push(controller);
        return mcpServerFailure(spec.server, errorMessage(error), error);
      }
    },
  };
}
