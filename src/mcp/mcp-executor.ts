import type { ExecutionOutcome, ExecutionRequest, Executor } from '../dispatch/executor.js';
import { errorMessage } from '../errors.js';
import type { SchemaValidator } from '../tools/schema-validator.js';
import { mcpServerFailure, outcomeOfMcpResult } from './mcp-call-result.js';
import type { McpConnection } from './mcp-connection.js';

function ignore(): void {}

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
      const call = connection.callTool(toolName, request.args, {
        signal: request.signal,
        onProgress: (progress) => request.emit(progress),
      });
      // When the race below is lost to an abort, the SDK still rejects the call later.
      call.catch(ignore);
      try {
        const answer = request.abortable
          ? await Promise.race([call, request.whenAborted()])
          : await call;
        return outcomeOfMcpResult(request.tool, spec.server, answer, validator);
      } catch (error) {
        if (request.signal.aborted) return { ok: false, error: request.signal.reason };
        return mcpServerFailure(spec.server, errorMessage(error), error);
      }
    },
  };
}
