import { InvalidOptionError, ToolDefinitionError } from '../errors.js';
import { defineTool } from './define-tool.js';
import type { JsonObject, JsonSchema } from './json.js';
import { defaultSchemaValidator, type FormatMode, SchemaValidator } from './schema-validator.js';
import { providerSafeAlias, TOOL_NAME_PATTERN } from './tool-names.js';
import type { Tool, ToolSpec } from './tool-spec.js';

// Registries hold tools of any argument type; handlers are checked where tools are defined.
/** A tool of any argument, result and context types: what registries and dispatchers hold. */
// biome-ignore lint/suspicious/noExplicitAny: the registry is heterogeneous by design.
export type AnyTool = Tool<any, any, any>;
/** A tool spec of any types: what `defineTool` accepts before it checks the spec. */
// biome-ignore lint/suspicious/noExplicitAny: see AnyTool; its schema is JSON or a Standard Schema.
export type AnyToolSpec = ToolSpec<any, any, any, any>;

/** A tool as a model sees it: provider-safe name, description, model-visible schema. */
export interface ModelToolDefinition {
  /** The provider-safe alias (equal to the canonical name unless the name is foreign). */
  readonly name: string;
  /** The name events and receipts use. */
  readonly canonicalName: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /**
   * The tool's `inputExamples`, when it has some: adapters send them natively or write them
   * into the description (`describeWithExamples`).
   */
  readonly inputExamples?: readonly JsonObject[];
}

/** Options of `createToolRegistry`. */
export interface ToolRegistryOptions {
  /** Compiles and caches schemas. Default: the shared validator (formats asserted). */
  readonly validator?: SchemaValidator;
  /**
   * How `format` is treated (see `SchemaValidatorOptions.formats`): `assert` (default) or
   * `annotate`. Gives the registry a validator of its own; to share one, pass `validator`.
   */
  readonly formats?: FormatMode;
}

function validatorFrom(options: ToolRegistryOptions): SchemaValidator {
  const { validator, formats } = options;
  if (formats === undefined) return validator ?? defaultSchemaValidator;
  if (validator === undefined) return new SchemaValidator({ formats });
  if (validator.formats !== formats) {
    throw new InvalidOptionError(
      'formats',
      `formats is ${JSON.stringify(formats)} but the given validator's is ${JSON.stringify(validator.formats)}; set it on the validator`,
    );
  }
  return validator;
}

function isDefined(tool: AnyToolSpec): tool is AnyTool {
  return Object.isFrozen(tool) && typeof (tool as AnyTool).handlerSchema === 'object';
}

/**
 * An immutable set of tools in definition order. Every change returns a new registry, so a
 * registry handed to a turn never changes under it.
 */
export class ToolRegistry {
  readonly validator: SchemaValidator;
  private readonly tools: readonly AnyTool[];
  private readonly byName: ReadonlyMap<string, AnyTool>;
  private readonly aliasByName: ReadonlyMap<string, string>;
  private readonly nameByAlias: ReadonlyMap<string, string>;

  private constructor(tools: readonly AnyTool[], validator: SchemaValidator) {
    this.validator = validator;
    this.tools = Object.freeze([...tools]);
    const byName = new Map<string, AnyTool>();
    for (const tool of tools) {
      if (byName.has(tool.name)) {
        throw new ToolDefinitionError(
          `tool ${JSON.stringify(tool.name)} is already defined; use .without(name).define(spec) to replace it`,
          { rule: 'name_duplicate', toolName: tool.name },
        );
      }
      byName.set(tool.name, tool);
    }
    this.byName = byName;
    // Provider-safe names claim themselves first, so aliases of foreign names never shadow them,
    // whatever the definition order.
    const taken = new Set<string>();
    for (const tool of tools) if (TOOL_NAME_PATTERN.test(tool.name)) taken.add(tool.name);
    const aliasByName = new Map<string, string>();
    const nameByAlias = new Map<string, string>();
    for (const tool of tools) {
      const alias = TOOL_NAME_PATTERN.test(tool.name)
        ? tool.name
        : providerSafeAlias(tool.name, taken);
      taken.add(alias);
      aliasByName.set(tool.name, alias);
      nameByAlias.set(alias, tool.name);
    }
    this.aliasByName = aliasByName;
    this.nameByAlias = nameByAlias;
  }

  /** @internal Use `createToolRegistry`. */
  static create(tools: Iterable<AnyToolSpec>, options: ToolRegistryOptions = {}): ToolRegistry {
    const validator = validatorFrom(options);
    const defined = [...tools].map((tool) =>
      isDefined(tool) ? tool : defineTool(tool, validator),
    );
    return new ToolRegistry(defined, validator);
  }

  /** Number of tools. */
  get size(): number {
    return this.tools.length;
  }

  /** A new registry with `spec` added. Throws `ToolDefinitionError` on an invalid or duplicate name. */
  define(spec: AnyToolSpec): ToolRegistry {
    const tool = isDefined(spec) ? spec : defineTool(spec, this.validator);
    return new ToolRegistry([...this.tools, tool], this.validator);
  }

  /** A new registry without the named tool (the same registry if there is none). */
  without(name: string): ToolRegistry {
    if (!this.byName.has(name)) return this;
    return new ToolRegistry(
      this.tools.filter((tool) => tool.name !== name),
      this.validator,
    );
  }

  /** A new registry holding these tools, in this order (used by schema-time middleware). */
  withTools(tools: Iterable<AnyToolSpec>): ToolRegistry {
    return ToolRegistry.create(tools, { validator: this.validator });
  }

  /** The tool with this canonical name. */
  get(name: string): AnyTool | undefined {
    return this.byName.get(name);
  }

  /**
   * True when a tool is registered under `name` (canonical names only; see `resolve` for aliases).
   */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The tool called by its canonical name or by its provider-safe alias. */
  resolve(nameOrAlias: string): AnyTool | undefined {
    const direct = this.byName.get(nameOrAlias);
    if (direct !== undefined) return direct;
    const canonical = this.nameByAlias.get(nameOrAlias);
    return canonical === undefined ? undefined : this.byName.get(canonical);
  }

  /** The provider-safe alias of a canonical name. */
  aliasOf(name: string): string | undefined {
    return this.aliasByName.get(name);
  }

  /** All tools, in definition order. */
  list(): readonly AnyTool[] {
    return this.tools;
  }

  /** Canonical names, in definition order. */
  names(): string[] {
    return this.tools.map((tool) => tool.name);
  }

  /**
   * What a model is shown: provider-safe names, descriptions and model-visible schemas of the tools
   * that are not deferred (plus any `include`d by name, e.g. promoted by tool search). Runtime values
   * never appear here: they are not part of any schema.
   */
  modelDefinitions(include: Iterable<string> = []): ModelToolDefinition[] {
    const promoted = new Set(include);
    return this.tools
      .filter((tool) => !tool.deferLoading || promoted.has(tool.name))
      .map((tool) => ({
        name: this.aliasByName.get(tool.name) ?? tool.name,
        canonicalName: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
        ...(tool.inputExamples === undefined ? {} : { inputExamples: tool.inputExamples }),
      }));
  }

  /** The tools, in registration order. */
  [Symbol.iterator](): Iterator<AnyTool> {
    return this.tools[Symbol.iterator]();
  }
}

/**
 * Builds an immutable registry from tool specs (or defined tools), in order. Options: `validator`
 * (default: the shared one) or `formats` (`assert` by default). Throws `ToolDefinitionError` for
 * an invalid spec, `InvalidOptionError` when `formats` contradicts the given validator.
 *
 * @example
 * const registry = createToolRegistry([add]).define(echo);
 * registry.list().map((tool) => tool.name); // ['add', 'echo']
 */
export function createToolRegistry(
  tools: Iterable<AnyToolSpec> = [],
  options: ToolRegistryOptions = {},
): ToolRegistry {
  return ToolRegistry.create(tools, options);
}
