// `switchyard worker`: what it refuses before any Redis is reached, and its help.
import { describe, expect, it } from 'vitest';
import { workerCommand } from '../src/worker-command.js';
import { captureIo } from './cli-io.js';

describe('switchyard worker', () => {
  it('is a usage error without --tools or --redis', async () => {
    const { io } = captureIo();
    const stop = AbortSignal.abort();
    await expect(workerCommand(['--redis', 'redis://127.0.0.1:1'], io, stop)).rejects.toMatchObject(
      {
        code: 'SY_ERR_CLI_USAGE',
      },
    );
    await expect(workerCommand(['--tools', 'tools.ts'], io, stop)).rejects.toMatchObject({
      code: 'SY_ERR_CLI_USAGE',
    });
  });

  it('prints its options for --help', async () => {
    const { io, out } = captureIo();
    expect(await workerCommand(['--help'], io, AbortSignal.abort())).toBe(0);
    expect(out()).toContain('--concurrency');
    expect(out()).toContain('never runs twice');
    expect(out()).toContain('--grace-ms');
  });

  it('is a usage error with a --grace-ms that is not a whole number of ms', async () => {
    const { io } = captureIo();
    await expect(
      workerCommand(
        ['--tools', 'tools.ts', '--redis', 'redis://127.0.0.1:1', '--grace-ms', 'soon'],
        io,
        AbortSignal.abort(),
      ),
    ).rejects.toMatchObject({ code: 'SY_ERR_CLI_USAGE' });
  });
});
