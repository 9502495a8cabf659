import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Socket } from 'node:net';
import { freePort } from './free-port.js';

/**
 * A `redis-server` of the test's (or benchmark's) own on a loopback port: persistence off, or an
 * append-only file in a directory of its own.
 */
export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** The server's process id (a new one after `start`). */
  readonly pid: number;
  /**
   * Kills the server (SIGKILL, as a crash would); it can be started again on the same port. With
   * the append-only file, every write it acknowledged is already in the file.
   */
  stop(): Promise<void>;
  /** Starts it again after `stop`, on the same port: empty, or with its append-only file's data. */
  start(): Promise<void>;
}

/** How `startRedisServer` runs the server. */
export interface RedisServerOptions {
  /**
   * A directory for an append-only file written before every reply (`appendfsync always`), so a
   * restart after `stop` finds every acknowledged write. Default none: nothing is saved.
   */
  readonly appendOnlyDir?: string;
}

/** True once a PING on the port gets PONG. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let reply = '';
    socket.once('error', () => resolve(false));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) {
        socket.destroy();
        resolve(reply.startsWith('+PONG'));
      }
    });
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
}

/**
 * Starts the Debian `redis-server` on a free loopback port with `--save ''` and `--appendonly no`
 * (or an append-only file in `appendOnlyDir`), and resolves once it answers. Stop it in `afterAll`.
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const port = await freePort();
  const persistence =
    options.appendOnlyDir === undefined
      ? ['--appendonly', 'no']
      : ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', options.appendOnlyDir];
  let child: ChildProcess | undefined;
  async function start(): Promise<void> {
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence],
      { stdio: 'ignore' },
    );
    child = started;
    const deadline = Date.now() + 10_000;
    while (!(await answers(port))) {
      if (started.exitCode !== null) throw new Error(`redis-server exited (${started.exitCode})`);
      if (Date.now() > deadline) throw new Error(`redis-server did not answer on port ${port}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  async function stop(): Promise<void> {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGKILL');
    await exited;
  }
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return child?.pid ?? 0;
    },
    stop,
    start,
  };
}
