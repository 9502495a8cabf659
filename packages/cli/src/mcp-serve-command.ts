import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { createMcpServer } from '@switchyard/mcp';
import { errorMessage } from 'switchyard/extension';
import { EXIT } from './exit-codes.js';
import { loadToolsModule, type ToolsModule } from './load-tools-module.js';
import { processStop } from './process-stop.js';

export const MCP_SERVE_USAGE = `Usage:
  switchyard mcp serve <tools-module> [options]

Serves the tools of a module over MCP; every call runs through the module's middleware.
The module exports "registry" (a ToolRegistry or an array of tools), and optionally "caller"
(middleware, e.g. governanceStack(...).caller) and "executors".

options:
  --http <host:port>     serve Streamable HTTP there (default: stdio); e.g. 127.0.0.1:8765
  --token-env <NAME>     require "Authorization: Bearer $NAME" on HTTP requests
  --max-concurrent <n>   calls running at once (default 16)
  --max-message-bytes <n>  the largest request, a stdio line or an HTTP body (default 4194304);
                         a longer one is answered with an error and the server goes on
  --max-sessions <n>     HTTP: live 2025-era sessions (default 64; the least recently active
                         idle one makes room for a new one)
  --session-idle-ms <n>  HTTP: close a session idle this long (default 600000)
  --name <name>          the server name clients see (default switchyard)
`;

/** Streams and a stop signal; the process's own by default. */
export interface McpServeIo {
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  readonly stderr?: Writable;
  /** Stops the server. Default: SIGINT or SIGTERM (HTTP), the end of stdin (stdio). */
  readonly signal?: AbortSignal;
}

function parseHostPort(value: string): { host: string; port: number } {
  const match = /^(.*):(\d+)$/.exec(value);
  const port = Number(match?.[2]);
  if (match === null || !(port >= 0 && port < 65536)) {
    throw new Error(`--http must be host:port (e.g. 127.0.0.1:8765); got ${value}`);
  }
  return { host: (match[1] ?? '').replace(/^\[(.*)\]$/, '$1') || '127.0.0.1', port };
}

/** A numeric flag's value; the server's own option checks judge it (`InvalidOptionError`). */
function numberOption(value: string | undefined): number | undefined {
  return value === undefined ? undefined : Number(value);
}

/**
 * `switchyard mcp serve <tools-module> [--http host:port]`: serves a tools module over stdio or
 * Streamable HTTP until stopped. Returns the exit code: 2 for a usage error, 3 for a tools module
 * that cannot be loaded, 1 when serving fails.
 */
export async function runMcpServeCommand(args: string[], io: McpServeIo = {}): Promise<number> {
  const stderr = io.stderr ?? process.stderr;
  let values: {
    http?: string;
    'token-env'?: string;
    'max-concurrent'?: string;
    'max-message-bytes'?: string;
    'max-sessions'?: string;
    'session-idle-ms'?: string;
    name?: string;
    help?: boolean;
  };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        http: { type: 'string' },
        'token-env': { type: 'string' },
        'max-concurrent': { type: 'string' },
        'max-message-bytes': { type: 'string' },
        'max-sessions': { type: 'string' },
        'session-idle-ms': { type: 'string' },
        name: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    stderr.write(`${errorMessage(error)}\n\n${MCP_SERVE_USAGE}`);
    return EXIT.usage;
  }
  const modulePath = positionals[0];
  if (values.help === true) {
    (io.stdout ?? process.stdout).write(MCP_SERVE_USAGE);
    return EXIT.ok;
  }
  if (modulePath === undefined) {
    stderr.write(`a tools module is required\n\n${MCP_SERVE_USAGE}`);
    return EXIT.usage;
  }
  let loaded: ToolsModule;
  try {
    loaded = await loadToolsModule(modulePath);
  } catch (error) {
    stderr.write(`switchyard mcp serve: ${errorMessage(error)}\n`);
    return EXIT.input;
  }
  try {
    const maxConcurrentCalls = numberOption(values['max-concurrent']);
    const maxMessageBytes = numberOption(values['max-message-bytes']);
    const maxSessions = numberOption(values['max-sessions']);
    const sessionIdleMs = numberOption(values['session-idle-ms']);
    const server = createMcpServer({
      registry: loaded.registry,
      ...(loaded.caller === undefined ? {} : { caller: loaded.caller }),
      ...(loaded.executors === undefined ? {} : { dispatcher: { executors: loaded.executors } }),
      ...(maxConcurrentCalls === undefined ? {} : { maxConcurrentCalls }),
      ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }),
      ...(values.name === undefined ? {} : { name: values.name }),
    });
    if (values.http === undefined) {
      const stdin = io.stdin ?? process.stdin;
      const serving = await server.serveStdio({ stdin, stdout: io.stdout ?? process.stdout });
      const ended = once(stdin, 'end').catch(() => undefined);
      await (io.signal === undefined ? ended : Promise.race([ended, once(io.signal, 'abort')]));
      await serving.close();
      return EXIT.ok;
    }
    const tokenEnv = values['token-env'];
    const bearerToken = tokenEnv === undefined ? undefined : process.env[tokenEnv];
    if (tokenEnv !== undefined && (bearerToken === undefined || bearerToken === '')) {
      throw new Error(`--token-env ${tokenEnv}: the environment variable is not set`);
    }
    const serving = await server.serveHttp({
      ...parseHostPort(values.http),
      ...(bearerToken === undefined ? {} : { bearerToken }),
      ...(maxSessions === undefined ? {} : { maxSessions }),
      ...(sessionIdleMs === undefined ? {} : { sessionIdleMs }),
    });
    stderr.write(`switchyard mcp: serving ${loaded.registry.size} tools at ${serving.url}\n`);
    const signal = io.signal ?? processStop();
    if (!signal.aborted) await once(signal, 'abort');
    await serving.close();
    return EXIT.ok;
  } catch (error) {
    stderr.write(`switchyard mcp serve: ${errorMessage(error)}\n`);
    return EXIT.failures;
  }
}
