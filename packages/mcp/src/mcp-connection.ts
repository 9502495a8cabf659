import type {
  CallToolRequestOptions,
  CallToolResult,
  Client,
  StandardSchemaV1,
  Transport,
} from '@modelcontextprotocol/client';
import { loadClientSdk, loadClientStdio } from './load-mcp-sdk.js';
import type { McpServerConfig } from './mcp-server-config.js';

/** Progress a server reported for one call. */
export interface McpProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** Options of one `tools/call`. */
export interface McpCallOptions {
  /** Aborting sends `notifications/cancelled`; the server process is left running. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: McpProgress) => void;
}

interface Session {
  readonly client: Client;
  readonly transport: Transport & { readonly pid?: number | null };
}

/** One page of `tools/list` as it arrived: each tool is checked on its own by `mcpToolsOf`. */
interface ToolsPage {
  readonly tools: readonly unknown[];
  readonly nextCursor?: string;
}

function isToolsPage(value: unknown): value is ToolsPage {
  if (typeof value !== 'object' || value === null) return false;
  const { tools, nextCursor } = value as Record<string, unknown>;
  return Array.isArray(tools) && (nextCursor === undefined || typeof nextCursor === 'string');
}

// The SDK checks a listing whole against the spec's schema, so one tool it rejects (a schema
// of a bogus type, a string, none at all) would reject the server: only the page's shape is
// checked here.
const TOOLS_PAGE: StandardSchemaV1<unknown, ToolsPage> = {
  '~standard': {
    version: 1,
    vendor: 'switchyard',
    validate: (value) =>
      isToolsPage(value)
        ? { value }
        : { issues: [{ message: 'expected { tools: [...], nextCursor?: string }' }] },
  },
};

/** An HTTP 404 for a request of a session: the server has forgotten the session. */
function isSessionGone(error: unknown): boolean {
  const data = (error as { data?: { status?: unknown } } | null)?.data;
  return typeof data === 'object' && data !== null && data.status === 404;
}

/** Pages of one listing at most, so a server cannot keep a listing going for ever. */
const MAX_LIST_PAGES = 100;
const STDERR_LIMIT = 64 * 1024;
const DEFAULT_TIMEOUT_MS = 60_000;
// The SDK's own request timer only backs up the dispatcher's, which aborts first and says `timeout`.
const SDK_TIMEOUT_SLACK_MS = 5_000;

/**
 * One MCP server: connected on first use, reconnected on the next call after it dies. A call in
 * flight when the server dies fails (it is never replayed: the server may have run it).
 */
export class McpConnection {
  readonly name: string;
  readonly config: McpServerConfig;
  /** Set when the server says its tool list changed; cleared by `listTools`. */
  toolsChanged = false;
  #session: Promise<Session> | undefined;
  /** The session `#session` resolved to, while it is the live one. */
  #ready: Session | undefined;
  #generation = 0;
  #stderr = '';
  #closed = false;
  readonly #onToolsChanged: (() => void) | undefined;

  constructor(config: McpServerConfig, onToolsChanged?: () => void) {
    this.name = config.name;
    this.config = config;
    this.#onToolsChanged = onToolsChanged;
  }

  /** The last 64 KiB the stdio server wrote to its stderr (all of its sessions). */
  get stderr(): string {
    return this.#stderr;
  }

  /** The pid of the running stdio server process, if connected. */
  async pid(): Promise<number | null> {
    const session = await this.#session?.catch(() => undefined);
    return session?.transport.pid ?? null;
  }

  /** Connects now (otherwise the first call does). Rejects when the server cannot be reached. */
  async connect(): Promise<void> {
    await this.#current();
  }

  /**
   * Every tool the server offers, following pagination, as sent: entries are not checked here
   * (`mcpToolsOf` skips the unusable ones). Rejects past 100 pages.
   */
  async listTools(): Promise<unknown[]> {
    const { client } = await this.#current();
    this.toolsChanged = false;
    const tools: unknown[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < MAX_LIST_PAGES; pages += 1) {
      const page = await client.request(
        { method: 'tools/list', ...(cursor === undefined ? {} : { params: { cursor } }) },
        TOOLS_PAGE,
      );
      tools.push(...page.tools);
      cursor = page.nextCursor;
      if (cursor === undefined) return tools;
    }
    throw new Error(`tools/list went on past ${MAX_LIST_PAGES} pages`);
  }

  /**
   * One `tools/call` by the server's own tool name. Rejects on protocol and transport failures.
   * Over HTTP, a session the server no longer knows (404: it expired or made room for another)
   * is replaced by a new one and the call sent once more: a 404 means the server never ran it.
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: McpCallOptions = {},
  ): Promise<CallToolResult> {
    // A connected session is used at once: awaiting its settled promise costs a turn per call.
    let used = this.#ready;
    const call =
      used !== undefined
        ? this.#call(used.client, name, args, options)
        : this.#current().then((session) => {
            used = session;
            return this.#call(session.client, name, args, options);
          });
    if (this.config.transport !== 'http') return call;
    return call.catch((error: unknown) => {
      if (!isSessionGone(error) || options.signal?.aborted === true) throw error;
      this.#forget(used);
      return this.#current().then(({ client }) => this.#call(client, name, args, options));
    });
  }

  /** Drops a session that is still the current one, so the next call opens another. */
  #forget(session: Session | undefined): void {
    if (session === undefined || this.#ready !== session) return;
    this.#session = undefined;
    this.#ready = undefined;
    session.client.close().catch(() => undefined);
  }

  #call(
    client: Client,
    name: string,
    args: Record<string, unknown>,
    options: McpCallOptions,
  ): Promise<CallToolResult> {
    // Built field by field: spreading optional parts allocates and copies on every call.
    const sdkOptions: CallToolRequestOptions = {
      timeout: (this.config.timeoutMs ?? DEFAULT_TIMEOUT_MS) + SDK_TIMEOUT_SLACK_MS,
    };
    if (options.signal !== undefined) sdkOptions.signal = options.signal;
    const onProgress = options.onProgress;
    if (onProgress !== undefined) {
      sdkOptions.onprogress = ({ progress, total, message }) =>
        onProgress({
          progress,
          ...(total === undefined ? {} : { total }),
          ...(message === undefined ? {} : { message }),
        });
    }
    return client.callTool({ name, arguments: args }, sdkOptions) as Promise<CallToolResult>;
  }

  /** Closes the session (a stdio server is asked to exit, then stopped). Later calls fail. */
  async close(): Promise<void> {
    this.#closed = true;
    const session = await this.#session?.catch(() => undefined);
    this.#session = undefined;
    this.#ready = undefined;
    await session?.client.close();
  }

  #current(): Promise<Session> {
    if (this.#closed) return Promise.reject(new Error(`MCP server "${this.name}" is closed`));
    if (this.#session === undefined) {
      const generation = ++this.#generation;
      const opening = this.#open(generation);
      this.#session = opening;
      opening.then(
        (session) => {
          if (this.#generation === generation && this.#session === opening) this.#ready = session;
        },
        () => {
          if (this.#generation === generation) this.#session = undefined;
        },
      );
    }
    return this.#session;
  }

  async #open(generation: number): Promise<Session> {
    const { Client } = await loadClientSdk();
    const transport = await this.#transport();
    const protocol = this.config.protocol ?? 'legacy';
    const client = new Client(
      { name: 'switchyard', version: '0.1.0' },
      {
        capabilities: {},
        versionNegotiation: {
          mode: protocol === 'legacy' ? 'legacy' : protocol === 'auto' ? 'auto' : { pin: protocol },
        },
      },
    );
    // A dead session is forgotten, so the next call reconnects; calls it had in flight fail.
    client.onclose = () => {
      if (this.#generation === generation) {
        this.#session = undefined;
        this.#ready = undefined;
      }
    };
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      this.toolsChanged = true;
      this.#onToolsChanged?.();
    });
    try {
      await client.connect(transport);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    return { client, transport };
  }

  async #transport(): Promise<Session['transport']> {
    const config = this.config;
    if (config.transport === 'http') {
      const { StreamableHTTPClientTransport } = await loadClientSdk();
      return new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: { ...config.headers } },
      });
    }
    const { StdioClientTransport } = await loadClientStdio();
    const transport = new StdioClientTransport({
      command: config.command,
      args: [...(config.args ?? [])],
      ...(config.env === undefined ? {} : { env: { ...config.env } }),
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      const text = this.#stderr + chunk.toString('utf8');
      this.#stderr = text.length > STDERR_LIMIT ? text.slice(text.length - STDERR_LIMIT) : text;
    });
    return transport;
  }
}
