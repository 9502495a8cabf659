import { SwitchyardError } from './switchyard-error.js';

/** Thrown by `ask` (and returned by `stop`) once an actor no longer takes messages. */
export class ActorStoppedError extends SwitchyardError {
  static readonly CODE = 'SY_ERR_ACTOR_STOPPED';
  static readonly FORMER_CODES: readonly string[] = ['actor_stopped'];
  readonly code = ActorStoppedError.CODE;
  readonly actorName: string;

  constructor(actorName: string) {
    super(`actor "${actorName}" is stopped and takes no more messages`);
    this.actorName = actorName;
  }
}
