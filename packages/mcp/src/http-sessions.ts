/** What a live session needs from its transport. */
export interface SessionTransport {
  close(): Promise<void>;
}

/** Options of `HttpSessions`. */
export interface HttpSessionsOptions {
  /** Live sessions at once. */
  readonly maxSessions: number;
  /** A session with nothing in flight for this long is closed. */
  readonly idleMs: number;
  /** The clock, in ms. Default `performance.now`. */
  readonly now?: () => number;
}

interface Session<T extends SessionTransport> {
  readonly transport: T;
  /** Requests of this session in flight now (an open GET stream is not counted). */
  inFlight: number;
  /** When a request of this session last started or ended. */
  lastActive: number;
}

/**
 * The live 2025-era sessions of an HTTP server, bounded in number and in idle time, so clients
 * that open sessions and never close them cannot lock later ones out: a session idle for
 * `idleMs` is closed, and when all `maxSessions` are taken, the least recently active idle one
 * is closed to make room (its client gets 404 and, as the spec says, starts a new session).
 * Only when every session has a request in flight is a new one refused.
 */
export class HttpSessions<T extends SessionTransport> {
  readonly #options: HttpSessionsOptions;
  readonly #now: () => number;
  readonly #sessions = new Map<string, Session<T>>();
  /** Slots promised to sessions being opened (`reserve`), not yet added. */
  #reserved = 0;

  constructor(options: HttpSessionsOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** The transport of a live session, or undefined. */
  get(id: string): T | undefined {
    return this.#sessions.get(id)?.transport;
  }

  /** Adds a session that its transport has just initialized. */
  add(id: string, transport: T): void {
    this.#sessions.set(id, { transport, inFlight: 0, lastActive: this.#now() });
  }

  /** Forgets a session its transport closed. */
  delete(id: string): void {
    this.#sessions.delete(id);
  }

  /** Marks a request of the session in flight; call the returned function when it ends. */
  begin(id: string): () => void {
    const session = this.#sessions.get(id);
    if (session === undefined) return () => {};
    session.inFlight += 1;
    session.lastActive = this.#now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      session.inFlight -= 1;
      session.lastActive = this.#now();
    };
  }

  /**
   * Promises a slot to a session about to be opened, closing the sessions idle for `idleMs` and,
   * when all `maxSessions` are still taken, the least recently active idle one. Returns the
   * release of the slot (call it once the session is added or has failed to open), or undefined
   * when there is no room: every session has a request in flight.
   */
  async reserve(): Promise<(() => void) | undefined> {
    await this.closeIdle();
    if (this.#sessions.size + this.#reserved >= this.#options.maxSessions) {
      let oldest: [string, Session<T>] | undefined;
      for (const entry of this.#sessions) {
        if (entry[1].inFlight > 0) continue;
        if (oldest === undefined || entry[1].lastActive < oldest[1].lastActive) oldest = entry;
      }
      if (oldest === undefined) return undefined;
      this.#sessions.delete(oldest[0]);
      await oldest[1].transport.close();
    }
    this.#reserved += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#reserved -= 1;
    };
  }

  /** Closes every session idle for `idleMs` or more. */
  async closeIdle(): Promise<void> {
    const now = this.#now();
    const idle = [...this.#sessions].filter(
      ([, session]) => session.inFlight === 0 && now - session.lastActive >= this.#options.idleMs,
    );
    await Promise.allSettled(idle.map(([id, session]) => this.#close(id, session)));
  }

  /** Closes every session. */
  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.#sessions].map(([id, session]) => this.#close(id, session)));
  }

  async #close(id: string, session: Session<T>): Promise<void> {
    this.#sessions.delete(id);
    await session.transport.close();
  }
}
