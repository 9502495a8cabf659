// docs/errors.md: telling Switchyard's errors apart by class, across duplicate installs.
import type { DispatcherOptions } from 'switchyard/dispatch';

declare const options: DispatcherOptions;

// #region is-instance
import { createDispatcher } from 'switchyard';
import { InvalidOptionError } from 'switchyard/errors';

try {
  createDispatcher(options);
} catch (error) {
  if (InvalidOptionError.isInstance(error)) console.error(`fix the option ${error.option}`);
  else throw error;
}
// #endregion is-instance
