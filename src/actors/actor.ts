import { ActorStoppedError } from '../errors.js';
import { FifoQueue } from './fifo-queue.js';

/** What a supervisor does after a message handler throws. */
export type SupervisorDirective =
  /** Keep the state and go on with the next message (default). */
  | 'resume'
  /** Replace the state with a fresh `init()` and go on. */
  | 'restart'
  /** Stop the actor: queued and later messages are refused with `ActorStoppedError`. */
  | 'stop';

/** Options of `createActor`: its initial state, how it handles a message, and its mailbox bound. */
export interface ActorOptions<State, Message, Reply> {
  /** Names the actor in errors and stack traces. */
  readonly name: string;
  /** The initial state; called again on `restart`. */
  init(): State;
  /**
   * Handles one message. Runs strictly one at a time, so it may read and change `state` freely
   * between awaits without locks.
   */
  receive(state: State, message: Message): Reply | Promise<Reply>;
  /**
   * Handles every queued message at once (up to `maxBatch`), in order, returning one reply per
   * message. When given, it replaces `receive` for the messages it takes: a file writer turns a
   * burst of lines into one write. If it throws, every message of the batch fails.
   */
  receiveBatch?(
    state: State,
    messages: readonly Message[],
  ): readonly Reply[] | Promise<readonly Reply[]>;
  /** Most messages one `receiveBatch` call takes. Default 1024. */
  readonly maxBatch?: number;
  /** Decides what happens after `receive` throws. Default: `resume`. If it throws, the actor stops. */
  supervise?(error: unknown, message: Message): SupervisorDirective;
  /** Reports failures of `tell` messages, which have no one to reject. Default: ignored. */
  onUnhandledError?(error: unknown, message: Message): void;
}

/** A handle to a running actor. */
export interface ActorRef<Message, Reply> {
  readonly name: string;
  /** Messages waiting, not counting the one being handled. */
  readonly mailboxSize: number;
  readonly stopped: boolean;
  /** Sends a message without waiting for its reply. Throws `ActorStoppedError` once stopped. */
  tell(message: Message): void;
  /** Sends a message and resolves with its reply (rejects with what `receive` threw). */
  ask(message: Message): Promise<Reply>;
  /** Refuses new messages, lets the queued ones finish, then resolves. */
  stop(): Promise<void>;
}

interface Envelope<Message, Reply> {
  readonly message: Message;
  readonly resolve: ((reply: Reply) => void) | undefined;
  readonly reject: ((error: unknown) => void) | undefined;
}

/**
 * Starts an actor: a mailbox processed one message at a time, owning a piece of state or a side
 * effect that must live in one place (a file being appended, a counter, a worker pool).
 *
 * @example
 * const counter = createActor({ name: 'counter', init: () => ({ n: 0 }), receive: (state, by: number) => (state.n += by) });
 * counter.tell(1);
 * await counter.ask(2); // 3
 */
export function createActor<State, Message, Reply>(
  options: ActorOptions<State, Message, Reply>,
): ActorRef<Message, Reply> {
  const mailbox = new FifoQueue<Envelope<Message, Reply>>();
  let state = options.init();
  /** True while the drain loop runs; it owns the mailbox until it empties it. */
  let draining = false;
  /** Set by `stop()` or a `stop` directive: no new messages are accepted. */
  let closed = false;
  /** Resolvers of `stop()` calls waiting for the drain loop to empty the mailbox. */
  const idle: Array<() => void> = [];

  function refuse(envelope: Envelope<Message, Reply>): void {
    envelope.reject?.(new ActorStoppedError(options.name));
  }

  /** Reports to `onUnhandledError`; a reporter that throws must not wedge the mailbox. */
  function report(error: unknown, message: Message): void {
    try {
      options.onUnhandledError?.(error, message);
    } catch {
      // Nowhere left to report to.
    }
  }

  /**
   * Applies the supervisor's directive. A supervisor (or a restart's `init`) that throws cannot
   * vouch for the state, so the actor stops instead of wedging its drain loop.
   */
  function fail(envelope: Envelope<Message, Reply>, error: unknown): void {
    if (envelope.reject !== undefined) envelope.reject(error);
    else report(error, envelope.message);
    let directive: SupervisorDirective;
    try {
      directive = options.supervise?.(error, envelope.message) ?? 'resume';
      if (directive === 'restart') state = options.init();
    } catch (supervisorError) {
      report(supervisorError, envelope.message);
      directive = 'stop';
    }
    if (directive === 'stop') {
      closed = true;
      for (let queued = mailbox.shift(); queued !== undefined; queued = mailbox.shift())
        refuse(queued);
    }
  }

  async function receiveOne(envelope: Envelope<Message, Reply>): Promise<void> {
    try {
      const reply = await options.receive(state, envelope.message);
      envelope.resolve?.(reply);
    } catch (error) {
      fail(envelope, error);
    }
  }

  async function drain(): Promise<void> {
    draining = true;
    const { receiveBatch, maxBatch = 1024 } = options;
    while (mailbox.size > 0) {
      if (receiveBatch === undefined) {
        await receiveOne(mailbox.shift()!);
        continue;
      }
      // Handled here rather than in an async helper, which would add a promise and a tick to
      // every batch (a batch of one, when messages arrive one at a time).
      const batch: Envelope<Message, Reply>[] = [];
      const messages: Message[] = [];
      while (batch.length < maxBatch && mailbox.size > 0) {
        const envelope = mailbox.shift()!;
        batch.push(envelope);
        messages.push(envelope.message);
      }
      try {
        const replies = await receiveBatch(state, messages);
        for (let index = 0; index < batch.length; index += 1) {
          batch[index]!.resolve?.(replies[index] as Reply);
        }
      } catch (error) {
        for (const envelope of batch) fail(envelope, error);
      }
    }
    draining = false;
    for (let resolve = idle.shift(); resolve !== undefined; resolve = idle.shift()) resolve();
  }

  function enqueue(envelope: Envelope<Message, Reply>): void {
    if (closed) {
      refuse(envelope);
      return;
    }
    mailbox.push(envelope);
    if (!draining) void drain();
  }

  return {
    name: options.name,
    get mailboxSize() {
      return mailbox.size;
    },
    get stopped() {
      return closed;
    },
    tell(message) {
      if (closed) throw new ActorStoppedError(options.name);
      enqueue({ message, resolve: undefined, reject: undefined });
    },
    ask(message) {
      return new Promise<Reply>((resolve, reject) => enqueue({ message, resolve, reject }));
    },
    stop() {
      closed = true;
      if (!draining) return Promise.resolve();
      return new Promise<void>((resolve) => {
        idle.push(resolve);
      });
    },
  };
}
