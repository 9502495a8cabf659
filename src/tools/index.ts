// `switchyard/tools`: defining tools and what the registry is built from: name rules and
// provider-safe aliases, safety resolution, schema validation, canonical JSON.

export {
  type CanonicalVersion,
  canonicalHash,
  canonicalJson,
  sha256Hex,
} from './canonical-json.js';
export { defineTool } from './define-tool.js';
export { describeWithExamples } from './input-examples.js';
export { hasOwn, isPlainObject, type JsonObject, type JsonSchema, type JsonValue } from './json.js';
export {
  compileLinearRegex,
  type LinearMatch,
  type LinearRegex,
  quoteLiteral,
} from './linear-regex.js';
export type { SchemaIssue } from './repair-message.js';
export {
  type ArgumentCheck,
  defaultSchemaValidator,
  type FormatMode,
  type SchemaResource,
  SchemaValidator,
  type SchemaValidatorOptions,
} from './schema-validator.js';
export {
  isStandardSchema,
  type StandardJSONSchemaV1,
  type StandardSchemaV1,
} from './standard-schema.js';
export type { ToolCost, ToolUsage } from './tool-cost.js';
export {
  assertToolName,
  FOREIGN_TOOL_NAME_PATTERN,
  providerSafeAlias,
  TOOL_NAME_PATTERN,
} from './tool-names.js';
export {
  type AnyTool,
  type AnyToolSpec,
  createToolRegistry,
  type ModelToolDefinition,
  ToolRegistry,
  type ToolRegistryOptions,
} from './tool-registry.js';
export { deriveKind, resolveSafety, sideEffectRank } from './tool-safety.js';
export type {
  InjectedName,
  ResolvedSafety,
  RetryPolicy,
  SideEffectLevel,
  Tool,
  ToolExecutorSpec,
  ToolHandler,
  ToolKind,
  ToolProgress,
  ToolRuntime,
  ToolSafety,
  ToolSchema,
  ToolSpec,
  ToolTurnFacts,
} from './tool-spec.js';
export { SIDE_EFFECT_LEVELS, TOOL_KINDS } from './tool-spec.js';
export type { InferToolArgs, JsonTypeName, SchemaFor } from './tool-types.js';
export { type JsonWriteOptions, writeJson } from './write-json.js';
