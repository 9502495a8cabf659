import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { JsonObject, JsonSchema } from './json.js';
import type { ToolCost } from './tool-cost.js';

/** How far a tool may reach beyond computing a value. Ordered from least to most reach. */
export type SideEffectLevel = 'none' | 'read_only' | 'workspace_write' | 'process_exec' | 'network';

/** Ordered from least to most reach; `sideEffectRank` compares levels. */
export const SIDE_EFFECT_LEVELS: readonly SideEffectLevel[] = [
  'none',
  'read_only',
  'workspace_write',
  'process_exec',
  'network',
];

/** ACP tool kinds, shown by clients as icons and used by policies. */
export type ToolKind =
  | 'read'
  | 'edit'
  | 'delete'
  | 'move'
  | 'search'
  | 'execute'
  | 'think'
  | 'fetch'
  | 'other';

/** Every `ToolKind`, in the order the docs list them. */
export const TOOL_KINDS: readonly ToolKind[] = [
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'other',
];

/**
 * What a tool declares about its effects. The MCP-style hints (`readOnly`, `destructive`,
 * `idempotent`, `openWorld`) drive retries and scheduling; the flags drive policies.
 * Anything left out is resolved fail-closed by `resolveSafety`.
 */
export interface ToolSafety {
  readonly readOnly?: boolean;
  readonly destructive?: boolean;
  readonly idempotent?: boolean;
  /**
   * The handler passes its runtime's `idempotencyKey` to the system it changes (a payment API, a
   * database), which applies a repeated request once: a run that crashed mid-call may run it
   * again on resume instead of leaving it in doubt. Default false.
   */
  readonly honorsIdempotencyKey?: boolean;
  readonly openWorld?: boolean;
  readonly sideEffectLevel?: SideEffectLevel;
  readonly requiresConfirmation?: boolean;
  readonly filesystem?: boolean;
  readonly shell?: boolean;
  readonly network?: boolean;
  readonly spend?: boolean;
  /** The directory a filesystem tool is confined to. */
  readonly workspaceRoot?: string;
  /** Argument keys removed (at any depth) before arguments are hashed or logged. */
  readonly redact?: readonly string[];
}

/** Safety metadata with every field decided. */
export interface ResolvedSafety {
  readonly readOnly: boolean;
  readonly destructive: boolean;
  readonly idempotent: boolean;
  readonly honorsIdempotencyKey: boolean;
  readonly openWorld: boolean;
  readonly sideEffectLevel: SideEffectLevel;
  readonly requiresConfirmation: boolean;
  readonly filesystem: boolean;
  readonly shell: boolean;
  readonly network: boolean;
  readonly spend: boolean;
  readonly workspaceRoot?: string;
  readonly redact: readonly string[];
}

/**
 * Retries for transient failures. Allowed only on tools that are read-only or idempotent:
 * `defineTool` rejects a retry policy on any other tool.
 */
export interface RetryPolicy {
  /** Total attempts including the first. Default 3. */
  readonly maxAttempts?: number;
  /** Delay before the first retry. Default 100 ms. */
  readonly initialDelayMs?: number;
  /** Upper bound of one delay. Default 2000 ms. */
  readonly maxDelayMs?: number;
  /** Growth of the delay per attempt. Default 2. */
  readonly factor?: number;
  /** Randomise each delay in [delay/2, delay]. Default true. */
  readonly jitter?: boolean;
}

/**
 * Where a tool's handler runs. `inline` (the default) runs it on the main thread; `mcp_server` on
 * an MCP server; `queue` on a worker process reached through Redis.
 */
export type ToolExecutorSpec =
  | { readonly kind: 'inline' }
  | {
      readonly kind: 'worker';
      /** URL (or absolute path) of an ES module loadable in a worker thread. */
      readonly module: string | URL;
      /** Export name of the handler in that module. Default `default`. */
      readonly export?: string;
    }
  | {
      readonly kind: 'mcp_server';
      /** Name of the connected MCP server that runs the tool (see `switchyard/mcp`). */
      readonly server: string;
    }
  | {
      /**
       * A BullMQ job run by a `switchyard worker` process (see `switchyard/queue`). The handler
       * is needed only where the worker loads the tool.
       */
      readonly kind: 'queue';
      /** The queue's name. Default: the queue executor's own (`switchyard`). */
      readonly queue?: string;
    };

/** Names of the hidden runtime values a handler may ask for through `injected`. */
export type InjectedName = 'context' | 'stores' | 'secrets';

/** A progress or log event a handler sends while it runs. */
export interface ToolProgress {
  readonly message?: string;
  readonly progress?: number;
  readonly total?: number;
  readonly data?: unknown;
}

/** Turn facts a handler may read (never model-visible). */
export interface ToolTurnFacts {
  readonly iteration: number;
  readonly sessionId: string;
  readonly runId: string | null;
  readonly emitOrder: number;
}

/**
 * The hidden side of a call: everything the handler may use that the model must never see.
 * `context`, `stores` and `secrets` are present only when the tool lists them in `injected`.
 */
export interface ToolRuntime<Context = unknown> {
  readonly callId: string;
  readonly toolName: string;
  /** Aborted when the call times out, the turn is cancelled or a sibling fails fatally. */
  readonly signal: AbortSignal;
  readonly turn: ToolTurnFacts;
  /**
   * Names this call for the systems it changes: the same across retries of the call and, in a
   * journaled run, across resumes (a run that crashed and is resumed hands the same key to the
   * call it runs again). Pass it on as the external API's idempotency key (Stripe's
   * `Idempotency-Key`, a unique database column) and declare `safety.honorsIdempotencyKey`.
   */
  readonly idempotencyKey: string;
  readonly context: Context | undefined;
  readonly stores: Readonly<Record<string, unknown>> | undefined;
  readonly secrets: Readonly<Record<string, string>> | undefined;
  /** Sends a progress event for this call on the dispatcher's `events$`. */
  emit(progress: ToolProgress): void;
  /**
   * Reports what this call spent: `usd` (US dollars) and `units` of the tool's own `unit` (pages,
   * queries). Reports add up, over retries too, into the result's `usage`, its receipt and its span.
   * A tool that reports dollars should declare `safety.spend`; one that does not is flagged
   * (`usage.undeclaredSpend`). Throws `InvalidArgumentError` on a negative or non-finite amount, an
   * empty unit, or a unit other than the call's earlier reports named.
   */
  reportCost(cost: ToolCost): void;
}

/**
 * A tool's function: the validated arguments and the call's runtime in, the result (or a promise of
 * it) out; a throw is a tool error.
 */
export type ToolHandler<Args = JsonObject, Result = unknown, Context = unknown> = (
  args: Args,
  runtime: ToolRuntime<Context>,
) => Result | Promise<Result>;

/** A tool's schema as a user writes it: JSON Schema, or a Standard Schema (zod 4, valibot, arktype, …). */
export type ToolSchema = JsonSchema | StandardSchemaV1;

/**
 * What a user writes to define a tool. Only `name`, `description`, `inputSchema` and a handler are
 * required. `Input` is the type of `inputSchema`, kept so `defineTool` can infer the handler's
 * arguments from it.
 */
export interface ToolSpec<
  Args = JsonObject,
  Result = unknown,
  Context = unknown,
  Input extends ToolSchema = ToolSchema,
> {
  readonly name: string;
  readonly description: string;
  /**
   * The arguments' schema (an object schema): JSON Schema, or a Standard Schema (zod 4, valibot,
   * arktype, …) that the model sees converted by its library and that validates the arguments.
   */
  readonly inputSchema: Input;
  /** The result's schema: JSON Schema or a Standard Schema (shown as its output JSON Schema). */
  readonly outputSchema?: JsonSchema | StandardSchemaV1;
  /**
   * The model-visible JSON Schema of a Standard Schema `inputSchema`, instead of the library's own
   * conversion (for libraries without one, or types it cannot convert). Validation stays the library's.
   */
  readonly jsonSchema?: JsonSchema;
  /** The same override for a Standard Schema `outputSchema`. */
  readonly outputJsonSchema?: JsonSchema;
  /** Runs the tool. Optional only for tools whose `executor` is not inline. */
  handler?(args: Args, runtime: ToolRuntime<Context>): Result | Promise<Result>;
  /** Hidden runtime values the handler receives; never part of any model-visible schema. */
  readonly injected?: readonly InjectedName[];
  readonly safety?: ToolSafety;
  /** ACP kind; derived from the safety metadata when left out. */
  readonly kind?: ToolKind;
  /** Hard limit for one execution: the handler's signal aborts and the call yields `timeout`. */
  readonly timeoutMs?: number;
  readonly retry?: RetryPolicy;
  readonly executor?: ToolExecutorSpec;
  /**
   * Argument names whose values name the resource a call touches (a path, a record id). Calls of
   * tools with side effects that touch the same resource never run at the same time.
   */
  readonly resourceParams?: readonly string[];
  /** Calls of tools sharing a lane never run at the same time (e.g. `git`, `browser`). */
  readonly exclusiveLane?: string;
  /**
   * Example arguments that show the model how to call the tool (nested objects, optional fields,
   * formats). Each is checked against the input schema when the tool is defined. Sent natively
   * where the provider has a field for them (Anthropic `input_examples`), written into the
   * description elsewhere (OpenAI, MCP clients). Default: none.
   */
  readonly inputExamples?: readonly JsonObject[];
  /** Hidden from the model until promoted by tool search. */
  readonly deferLoading?: boolean;
  readonly namespace?: string;
  /** Display title for clients (ACP `title`). Default: the name. */
  readonly title?: string;
  /** Free metadata carried on the envelope and into receipts. */
  readonly annotations?: Readonly<Record<string, unknown>>;
  /**
   * Accept an MCP-style name (`server.tool`: letters, digits, `_`, `-`, `.`, up to 128 characters)
   * that providers cannot take verbatim. The registry gives it a provider-safe alias; events and
   * receipts keep this canonical name.
   */
  readonly foreignName?: boolean;
  /**
   * The schema the handler itself accepts. Defaults to `inputSchema`; schema-time middleware keeps it
   * when it rewrites `inputSchema`, and the executor validates against it after the middleware ran.
   */
  readonly handlerSchema?: JsonSchema;
}

/** A defined tool: a `ToolSpec` with every field decided, frozen. */
export interface Tool<Args = JsonObject, Result = unknown, Context = unknown>
  extends ToolSpec<Args, Result, Context, JsonSchema> {
  /** The model-visible JSON Schema (a Standard Schema's conversion, validated by its library). */
  readonly outputSchema?: JsonSchema;
  readonly title: string;
  readonly handlerSchema: JsonSchema;
  readonly injected: readonly InjectedName[];
  readonly safety: ResolvedSafety;
  readonly kind: ToolKind;
  readonly retry?: Required<RetryPolicy>;
  readonly executor: ToolExecutorSpec;
  readonly deferLoading: boolean;
  readonly foreignName: boolean;
  readonly annotations: Readonly<Record<string, unknown>>;
}
