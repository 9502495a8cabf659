import { once } from 'node:events';
import { createServer } from 'node:net';

/**
 * A loopback port that was free a moment ago: nothing listens on it once this resolves, so a
 * connection to it is refused (until something else takes it).
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
