/** What a command tells its user about its Redis connection. */
export interface RedisReporter {
  /** An error of a connection (they retry for ever): written once per distinct message. */
  readonly onError: (error: Error) => void;
  /** The connection is up: said only when a problem was written before. */
  connected(): void;
}

/** The URL as it may be shown: a password replaced by `***`. */
export function shownRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/**
 * Writes to `stream` what is wrong with the Redis connection of `who` (`switchyard worker 1234`):
 * the queue's connections retry for ever and would otherwise wait in silence. Each distinct error
 * is written once, with how to stop.
 */
export function redisReporter(
  stream: NodeJS.WritableStream,
  options: { readonly who: string; readonly url: string },
): RedisReporter {
  const url = shownRedisUrl(options.url);
  let last: string | undefined;
  return {
    onError(error) {
      // A refused `localhost` (IPv4 and IPv6 tried) is an AggregateError with no message.
      const message = error.message || (error as NodeJS.ErrnoException).code || error.name;
      if (message === last) return;
      last = message;
      stream.write(
        `${options.who}: cannot reach Redis at ${url} (${message}); retrying until it answers, Ctrl-C to stop\n`,
      );
    },
    connected() {
      if (last === undefined) return;
      last = undefined;
      stream.write(`${options.who}: connected to Redis at ${url}\n`);
    },
  };
}
