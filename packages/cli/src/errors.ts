import { SwitchyardError } from 'switchyard/errors';

/** A wrong command line; the CLI prints the message and the command's usage and exits 2. */
export class UsageError extends SwitchyardError {
  static readonly CODE = 'SY_ERR_CLI_USAGE';
  static readonly FORMER_CODES: readonly string[] = ['cli_usage'];
  readonly code = UsageError.CODE;
}

/** Input the CLI cannot read (a file, a module); it prints the message and exits 3. */
export class InputError extends SwitchyardError {
  static readonly CODE = 'SY_ERR_CLI_INPUT';
  static readonly FORMER_CODES: readonly string[] = ['cli_input'];
  readonly code = InputError.CODE;
}

/**
 * A `--prices` file the CLI cannot use: `problem` says why (`unreadable`: the file cannot be read,
 * exit 3; `not_json`, `bad_shape`, `unknown_key`, `bad_price`: its content is wrong, exit 2 like a
 * bad flag).
 */
export class PriceTableError extends SwitchyardError {
  static readonly CODE = 'SY_ERR_CLI_PRICE_TABLE';
  readonly code = PriceTableError.CODE;

  constructor(
    message: string,
    readonly problem: 'unreadable' | 'not_json' | 'bad_shape' | 'unknown_key' | 'bad_price',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
