import { InvalidOptionError, SwitchyardError } from 'switchyard/errors';
import { InputError, UsageError } from './errors.js';
import { EXIT } from './exit-codes.js';

/**
 * Prints what stopped a command on `err` and returns its exit code: 2 for a usage error or a bad
 * option, 3 for unreadable input, 1 otherwise.
 */
export function exitCodeOf(error: unknown, err: NodeJS.WritableStream): number {
  const message = error instanceof Error ? error.message : String(error);
  err.write(message.startsWith('switchyard') ? `${message}\n` : `switchyard: ${message}\n`);
  if (UsageError.isInstance(error) || InvalidOptionError.isInstance(error)) {
    err.write('(see switchyard <command> --help)\n');
    return EXIT.usage;
  }
  if (InputError.isInstance(error)) return EXIT.input;
  if (!SwitchyardError.isInstance(error) && error instanceof Error && error.stack !== undefined) {
    err.write(`${error.stack}\n`);
  }
  return EXIT.failures;
}
