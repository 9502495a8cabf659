import type { Dispatcher } from '../dispatch/dispatcher.js';
import { InvalidOptionError } from '../errors.js';
import type { DispatchTurnOptions } from './turn-options.js';

/** Options of an adapter that runs each framework step as one Switchyard turn. */
export interface StepAdapterOptions
  extends Pick<
    DispatchTurnOptions,
    'maxConcurrentTools' | 'cancelSiblingsOnFailure' | 'policy' | 'journal'
  > {
  /** The dispatcher whose registry and middleware run every call. */
  readonly dispatcher: Dispatcher;
  /** Session facts stamped on every call; the adapter counts `iteration` itself. */
  readonly turn?: Omit<NonNullable<DispatchTurnOptions['turn']>, 'iteration'>;
  /** Deferred tools promoted into the tool list the model is shown. Default: none. */
  readonly include?: Iterable<string>;
}

/**
 * The options of one step's turn: the adapter's, the facts the framework knows (`found`, which
 * the caller's own `turn` overrides) and the step's iteration.
 */
export function stepTurnOptions(
  options: StepAdapterOptions,
  iteration: number,
  found: NonNullable<StepAdapterOptions['turn']> = {},
): Omit<DispatchTurnOptions, 'signal'> {
  return {
    dispatcher: options.dispatcher,
    maxConcurrentTools: options.maxConcurrentTools,
    cancelSiblingsOnFailure: options.cancelSiblingsOnFailure,
    policy: options.policy,
    journal: options.journal,
    turn: { ...found, ...options.turn, iteration },
  };
}

/**
 * Checks the dispatcher an adapter was given.
 * @throws InvalidOptionError when it is not a Switchyard dispatcher.
 */
export function checkDispatcher(options: StepAdapterOptions, adapter: string): void {
  if (typeof options?.dispatcher?.dispatch !== 'function') {
    throw new InvalidOptionError(
      'dispatcher',
      `${adapter}: dispatcher must be a Switchyard dispatcher`,
    );
  }
}
