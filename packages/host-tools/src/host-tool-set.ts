import type { ToolRuntime } from 'switchyard';
import { defineTool, InvalidOptionError, toolOutput } from 'switchyard';
import { isToolOutput } from 'switchyard/dispatch';
import { checkFunction, checkOneOf, optionsObject } from 'switchyard/extension';
import type { AnyTool, AnyToolSpec } from 'switchyard/tools';
import { hasOwn, isPlainObject } from 'switchyard/tools';
import { renderAsText } from './render-as-text.js';

/** Options every host tool set takes. */
export interface HostToolSetOptions {
  /** Logical name → the name the model sees, e.g. `{ run_command: 'release_run' }`. */
  readonly names?: Readonly<Record<string, string>>;
  /** Logical name → model-facing description. */
  readonly descriptions?: Readonly<Record<string, string>>;
  /** Logical names or groups (`read`, `command`, `git`, `stdlib`) to include. Default: all. */
  readonly enabledTools?: readonly string[];
  /** Logical names or groups to leave out (applied after `enabledTools`). */
  readonly disabledTools?: readonly string[];
  /** Logical name (or `*` for all) → annotations merged into the tool's own. */
  readonly annotations?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Tool-vault namespace given to every tool. */
  readonly namespace?: string;
  /** Hide every tool until tool search promotes it. Default false. */
  readonly deferLoading?: boolean;
  /**
   * What the model reads from a tool's value: `json` (default: the value as compact JSON) or
   * `text` (`key: value` lines, multi-line strings as indented blocks; see `renderAsText`).
   * The structured value stays on the result either way; refusals keep their own text.
   */
  readonly outputFormat?: 'json' | 'text';
  /**
   * Renders what the model reads from a tool's value yourself (instead of `outputFormat`).
   * Refusals keep their own text; the structured value stays on the result either way. Tools
   * run on the worker pool (`sha256` with `workers`) keep the default rendering.
   */
  readonly resultFormatter?: (value: unknown, logicalName: string) => string;
}

/** One tool of a set, before the set's options apply. */
export interface HostToolDefinition {
  /** Logical name (also the default model-facing name). */
  readonly key: string;
  readonly group: string;
  /** Builds the spec; `nameOf` gives the final name of any tool in the set (for cross references). */
  build(nameOf: (key: string) => string): AnyToolSpec;
}

function stringMap(factory: string, option: string, value: unknown, keys: Set<string>) {
  if (value === undefined) return new Map<string, string>();
  if (!isPlainObject(value)) {
    throw new InvalidOptionError(option, `${factory}: ${option} must be an object`);
  }
  const map = new Map<string, string>();
  for (const [key, text] of Object.entries(value)) {
    if (!keys.has(key)) {
      throw new InvalidOptionError(option, `${factory}: ${option} names unknown tool "${key}"`);
    }
    if (typeof text !== 'string' || text === '') {
      throw new InvalidOptionError(option, `${factory}: ${option}.${key} must be a string`);
    }
    map.set(key, text);
  }
  return map;
}

function selection(factory: string, option: string, value: unknown, known: Set<string>) {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) {
    throw new InvalidOptionError(option, `${factory}: ${option} must be a list of names`);
  }
  for (const entry of value as string[]) {
    if (!known.has(entry)) {
      throw new InvalidOptionError(
        option,
        `${factory}: ${option} names unknown tool or group "${entry}"`,
      );
    }
  }
  return new Set(value as string[]);
}

/** The spec with its handler's values rendered by `formatter` (worker tools have no handler here). */
function formatted(
  spec: AnyToolSpec,
  key: string,
  formatter: (value: unknown, logicalName: string) => string,
): AnyToolSpec {
  const handler = spec.handler;
  if (handler === undefined) return spec;
  return {
    ...spec,
    handler: async (args: unknown, runtime: ToolRuntime) => {
      const value: unknown = await handler(args, runtime);
      if (isToolOutput(value)) return value;
      return toolOutput({ value, content: [{ type: 'text', text: formatter(value, key) }] });
    },
  };
}

/** The renderer `outputFormat` or `resultFormatter` asks for; none for the default JSON. */
function formatterOf(
  factory: string,
  settings: HostToolSetOptions,
): ((value: unknown, logicalName: string) => string) | undefined {
  const format =
    settings.outputFormat === undefined
      ? 'json'
      : checkOneOf(factory, 'outputFormat', settings.outputFormat, ['json', 'text']);
  if (settings.resultFormatter === undefined) return format === 'text' ? renderAsText : undefined;
  if (settings.outputFormat !== undefined) {
    throw new InvalidOptionError(
      'resultFormatter',
      `${factory}: give outputFormat or resultFormatter, not both`,
    );
  }
  return checkFunction(factory, 'resultFormatter', settings.resultFormatter);
}

/**
 * Applies the common options to a set's definitions and defines the tools. Throws
 * `InvalidOptionError` for an unknown logical name or group, a non-string name or description.
 */
export function buildHostToolSet(
  factory: string,
  definitions: readonly HostToolDefinition[],
  options: HostToolSetOptions | undefined,
): AnyTool[] {
  const settings = optionsObject(factory, options);
  const keys = new Set(definitions.map((definition) => definition.key));
  const known = new Set([...keys, ...definitions.map((definition) => definition.group)]);
  const names = stringMap(factory, 'names', settings.names, keys);
  const descriptions = stringMap(factory, 'descriptions', settings.descriptions, keys);
  const enabled = selection(factory, 'enabledTools', settings.enabledTools, known);
  const disabled = selection(factory, 'disabledTools', settings.disabledTools, known);
  const annotations = settings.annotations ?? {};
  if (!isPlainObject(annotations)) {
    throw new InvalidOptionError('annotations', `${factory}: annotations must be an object`);
  }
  const picked = (definition: HostToolDefinition): boolean =>
    (enabled === undefined || enabled.has(definition.key) || enabled.has(definition.group)) &&
    !(disabled?.has(definition.key) === true || disabled?.has(definition.group) === true);
  const nameOf = (key: string): string => names.get(key) ?? key;
  const formatter = formatterOf(factory, settings);
  return definitions.filter(picked).map((definition) => {
    const built = definition.build(nameOf);
    const spec = formatter === undefined ? built : formatted(built, definition.key, formatter);
    const own = hasOwn(annotations, definition.key) ? annotations[definition.key] : undefined;
    const shared = hasOwn(annotations, '*') ? annotations['*'] : undefined;
    return defineTool({
      ...spec,
      name: nameOf(definition.key),
      description: descriptions.get(definition.key) ?? spec.description,
      annotations: { ...spec.annotations, logicalName: definition.key, ...shared, ...own },
      ...(settings.namespace === undefined ? {} : { namespace: settings.namespace }),
      ...(settings.deferLoading === true ? { deferLoading: true } : {}),
    });
  });
}
