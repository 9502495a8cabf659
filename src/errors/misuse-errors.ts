import { SwitchyardError } from './switchyard-error.js';

/** A tool spec, registry or schema is invalid. Names the broken `rule`. */
export class ToolDefinitionError extends SwitchyardError {
  static readonly CODE = 'SY_ERR_INVALID_TOOL_DEFINITION';
  static readonly FORMER_CODES: readonly string[] = ['invalid_tool_definition'];
  readonly code = ToolDefinitionError.CODE;
  readonly rule: string;
  readonly toolName: string | undefined;

  constructor(message: string, details: { rule: string; toolName?: string; cause?: unknown }) {
    super(message, { cause: details.cause });
    this.rule = details.rule;
    this.toolName = details.toolName;
  }
}

/** An option passed to a factory (dispatcher, middleware) is invalid. Names the `option`. */
export class InvalidOptionError extends SwitchyardError {
  static readonly CODE = 'SY_ERR_INVALID_OPTION';
  static readonly FORMER_CODES: readonly string[] = ['invalid_option'];
  readonly code = InvalidOptionError.CODE;
  readonly option: string;

  constructor(option: string, message: string) {
    super(message);
    this.option = option;
  }
}

/**
 * A value handed to a function breaks its contract: what canonical JSON cannot write (a cycle),
 * a transcript message with an unknown role, a detector event of an unknown type. Names the
 * `argument`. (A factory's bad option is an `InvalidOptionError`.)
 */
export class InvalidArgumentError extends SwitchyardError {
  static readonly CODE = 'SY_ERR_INVALID_ARGUMENT';
  static readonly FORMER_CODES: readonly string[] = ['invalid_argument'];
  readonly code = InvalidArgumentError.CODE;
  readonly argument: string;

  constructor(argument: string, message: string) {
    super(message);
    this.argument = argument;
  }
}

/**
 * An optional peer dependency that a subpath needs is not installed. Names the `packageName` to
 * install and the `feature` that needs it.
 */
export class MissingPeerDependencyError extends SwitchyardError {
  static readonly CODE = 'SY_ERR_MISSING_PEER_DEPENDENCY';
  static readonly FORMER_CODES: readonly string[] = ['missing_peer_dependency'];
  readonly code = MissingPeerDependencyError.CODE;
  readonly packageName: string;
  readonly feature: string;

  constructor(packageName: string, feature: string, options?: { cause?: unknown }) {
    super(`${feature} needs the package "${packageName}": npm install ${packageName}`, options);
    this.packageName = packageName;
    this.feature = feature;
  }
}
