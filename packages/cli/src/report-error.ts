import { InvalidOptionError, SwitchyardError } from 'switchyard/errors';
import { InputError, PriceTableError, UsageError } from './errors.js';
import { EXIT } from './exit-codes.js';

/**
 * Prints what stopped a command on `err` and returns its exit code: 2 for a usage error, a bad
 * option or a bad price table, 3 for unreadable input (a price file included), 1 otherwise.
 */
export function exitCodeOf(error: unknown, err: NodeJS.WritableStream): number {
  const message = error instanceof Error ? error.message : String(error);
  err.write(message.startsWith('switchyard') ? `${message}\n` : `switchyard: ${message}\n`);
  const badPrices = PriceTableError.isInstance(error) && error.problem !== 'unreadable';
  if (UsageError.isInstance(error) || InvalidOptionError.isInstance(error) || badPrices) {
    err.write('(see switchyard <command> --help)\n');
    return EXIT.usage;
  }
  if (InputError.isInstance(error) || PriceTableError.isInstance(error)) return EXIT.input;
  if (!SwitchyardError.isInstance(error) && error instanceof Error && error.stack !== undefined) {
    err.write(`${error.stack}\n`);
  }
  return EXIT.failures;
}
