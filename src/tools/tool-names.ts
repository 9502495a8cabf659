import { createHash } from 'node:crypto';
import { ToolDefinitionError } from '../errors.js';

/** What OpenAI and Anthropic accept as a tool name; the rule for names defined here. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** MCP's tool-name rule (spec 2026-07-28): what `foreignName` tools may use. */
export const FOREIGN_TOOL_NAME_PATTERN = /^[a-zA-Z0-9_.-]{1,128}$/;

const NAME_RULE = 'tool names must match ^[a-zA-Z0-9_-]{1,64}$ (ASCII letters, digits, _ and -)';

/**
 * Throws a `ToolDefinitionError` naming the broken rule unless `name` is a valid tool name.
 * Foreign names (from MCP servers) may also contain `.` and be up to 128 characters long.
 */
export function assertToolName(name: unknown, options: { foreign?: boolean } = {}): void {
  if (typeof name !== 'string') {
    throw new ToolDefinitionError(`tool name must be a string; got ${typeof name}`, {
      rule: 'name_type',
    });
  }
  if (name.length === 0) {
    throw new ToolDefinitionError(`tool name is empty: ${NAME_RULE}`, {
      rule: 'name_empty',
      toolName: name,
    });
  }
  const pattern = options.foreign ? FOREIGN_TOOL_NAME_PATTERN : TOOL_NAME_PATTERN;
  if (pattern.test(name)) return;
  const limit = options.foreign ? 128 : 64;
  const shown = JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
  if (name.length > limit) {
    throw new ToolDefinitionError(
      `tool name ${shown} is ${name.length} characters long; the limit is ${limit}`,
      { rule: 'name_too_long', toolName: name },
    );
  }
  if (/\s/.test(name)) {
    throw new ToolDefinitionError(`tool name ${shown} contains whitespace: ${NAME_RULE}`, {
      rule: 'name_whitespace',
      toolName: name,
    });
  }
  const hint =
    !options.foreign && FOREIGN_TOOL_NAME_PATTERN.test(name)
      ? ' (names from MCP servers may contain dots: define them with foreignName: true)'
      : '';
  throw new ToolDefinitionError(
    `tool name ${shown} contains characters that need escaping: ${NAME_RULE}${hint}`,
    { rule: 'name_characters', toolName: name },
  );
}

const ALIAS_HASH_LENGTH = 8;

/**
 * A provider-safe spelling of a foreign name: characters outside the provider rule become `_`,
 * and when that is too long or already taken, the name is cut and a short hash of the original
 * name is appended. The registry keeps the mapping both ways, so aliases are reversible.
 */
export function providerSafeAlias(name: string, taken: ReadonlySet<string>): string {
  if (TOOL_NAME_PATTERN.test(name) && !taken.has(name)) return name;
  const sanitized = name.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (sanitized.length <= 64 && !taken.has(sanitized)) return sanitized;
  const digest = createHash('sha256').update(name).digest('hex');
  for (let extra = 0; extra + ALIAS_HASH_LENGTH <= digest.length; extra += 4) {
    const suffix = digest.slice(0, ALIAS_HASH_LENGTH + extra);
    const alias = `${sanitized.slice(0, 64 - suffix.length - 1)}_${suffix}`;
    if (!taken.has(alias)) return alias;
  }
  throw new ToolDefinitionError(
    `cannot find a provider-safe alias for tool ${JSON.stringify(name)}`,
    {
      rule: 'alias_collision',
      toolName: name,
    },
  );
}
