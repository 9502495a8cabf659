import type { ProviderContent, ToolCallDelta } from '../streams/tool-call-delta.js';
import type { ModelToolDefinition } from '../tools/tool-registry.js';

/**
 * The provider-neutral contract between the agent loop and a model. An adapter (OpenAI Chat,
 * OpenAI Responses, Anthropic Messages, the scripted model) turns a `ModelRequest` into its
 * provider's request and the provider's stream into `ToolCallDelta`s, which the streaming
 * detectors assemble into calls. Nothing here depends on an SDK.
 */
export interface ModelClient {
  /** Stamped on turns, receipts and spans: `openai`, `anthropic`, `scripted`, … */
  readonly provider: string;
  readonly model: string;
  /**
   * How the model proposes calls: `native` (the provider's tool calling, `call_*` deltas) or
   * `text` (calls written in prose, `<tool_call>name({...})</tool_call>`, read by the text
   * detector from `text` deltas).
   */
  readonly toolCalling: 'native' | 'text';
  /**
   * Streams one model turn. Yields deltas as they arrive, with exactly one `finish` when the
   * response ends normally (a `usage` delta may come before or after it, as the provider sends
   * it). A stream that ends without a `finish` was cut short: its open calls are retracted.
   * Rejects with `ModelError` when the provider fails (HTTP status, error frame mid-stream,
   * connection lost, timeout) and with `CancelledError` when `request.signal` aborts, also when
   * the SDK would end the iteration silently.
   */
  stream(request: ModelRequest): AsyncIterable<ToolCallDelta>;
  /** The tool-search variants the provider runs itself (`request.toolSearch`). Default none. */
  readonly nativeToolSearch?: readonly ('bm25' | 'regex')[];
  /**
   * The provider's own tool searches in a response it recorded (a `provider_content` delta),
   * in order: adapters that declare `nativeToolSearch` read their search calls and results here.
   */
  readonly toolSearchesOf?: (content: ProviderContent) => readonly NativeToolSearchRecord[];
}

/** One search the provider ran itself, read from its recorded response. */
export interface NativeToolSearchRecord {
  /** The search call's id (Anthropic `server_tool_use.id`, Responses `call_id`). */
  readonly toolCallId: string;
  /** The provider's search tool (`tool_search_tool_bm25`, `tool_search`). */
  readonly name: string;
  /** The query or pattern as the model wrote it (JSON text when it is not one string). */
  readonly query: string;
  /** The tools it loaded, by the names they were sent under, best first; empty when it failed or found none. */
  readonly loaded: readonly string[];
}

/** Deferred tools the provider searches itself, loading the matches into the model's view. */
export interface NativeToolSearchRequest {
  readonly variant: 'bm25' | 'regex';
  /** Sent with `defer_loading: true`; `namespace` groups them where the provider has namespaces. */
  readonly deferred: readonly (ModelToolDefinition & { readonly namespace?: string })[];
}

/** One model turn's input. */
export interface ModelRequest {
  readonly system?: string;
  readonly messages: readonly TranscriptMessage[];
  /** What the model is shown, with provider-safe names (`registry.modelDefinitions()`). */
  readonly tools: readonly ModelToolDefinition[];
  /** Provider-side tool search over deferred tools (adapters that declare `nativeToolSearch`). */
  readonly toolSearch?: NativeToolSearchRequest;
  readonly signal?: AbortSignal;
}

/** One message of a provider-neutral conversation; adapters map it to their wire shapes. */
export type TranscriptMessage = UserMessage | AssistantMessage | ToolResultsMessage;

/** A message of the user (or the task) in a transcript. */
export interface UserMessage {
  readonly role: 'user';
  readonly text: string;
}

/** What the model said in one turn: its text and every call it opened, in emission order. */
export interface AssistantMessage {
  readonly role: 'assistant';
  readonly text: string;
  readonly toolCalls: readonly TranscriptToolCall[];
  /**
   * The response as its provider recorded it (hosted tool results, thinking), when the adapter
   * sent one. The same provider's adapter replays it verbatim instead of rebuilding the message
   * from `text` and `toolCalls`; other adapters ignore it.
   */
  readonly providerContent?: ProviderContent;
}

/** A call as the model wrote it, kept verbatim so the provider sees its own turn replayed. */
export interface TranscriptToolCall {
  readonly id: string;
  /** The name the model used (a provider-safe alias for foreign names). */
  readonly name: string;
  /** The argument text as the model wrote it: JSON, possibly broken for a retracted call. */
  readonly argumentsText: string;
  /**
   * The provider ran this call itself (hosted tools): it has no local result, and adapters
   * that cannot replay it alone leave it out.
   */
  readonly providerNative?: boolean;
}

/** The answers to the previous assistant message's calls, in planner order. */
export interface ToolResultsMessage {
  readonly role: 'tool';
  readonly results: readonly TranscriptToolResult[];
}

/** One tool result as a transcript carries it back to the model. */
export interface TranscriptToolResult {
  readonly toolCallId: string;
  readonly toolName: string;
  /** What the model reads: the result's `observation` (or a retraction's repair message). */
  readonly content: string;
  /** Anthropic `is_error`; OpenAI has no flag and reads the content alone. */
  readonly isError: boolean;
}
