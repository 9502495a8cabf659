import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ModelError } from '../../src/errors.js';
import type { ModelClient, ModelRequest } from '../../src/providers/model-client.js';
import type { ToolCallDelta } from '../../src/streams/tool-call-delta.js';

/** The idle limit the suite arms: a stream silent this long fails its turn. */
export const IDLE_MS = 80;

/** The one call every driver streams. */
export const IDLE_CALL = { id: 'call_a', name: 'read', arguments: ['{"pa', 'th": "a.md"}'] };

/** A model request the drivers' models answer. */
export const idleRequest = (signal?: AbortSignal): ModelRequest => ({
  messages: [{ role: 'user', text: 'Go.' }],
  tools: [
    { name: 'read', canonicalName: 'read', description: 'read', inputSchema: { type: 'object' } },
  ],
  ...(signal === undefined ? {} : { signal }),
});

/** One provider's model over its loopback wire server. */
export interface IdleDriver {
  /** A model whose next response streams one call, then holds the stream open or ends it. */
  start(idleTimeoutMs: number, ending: 'hold' | 'end'): ModelClient;
  /** Resolves once the client has given up the request. */
  abandoned(): Promise<void>;
  close(): Promise<void>;
}

/**
 * What a provider's stream does when it stalls, run by each provider package with its driver
 * (started afresh for every test).
 */
export function streamIdleSuite(name: string, start: () => Promise<IdleDriver>): void {
  describe(`${name}: a stream that stalls`, () => {
    let driver: IdleDriver;
    beforeEach(async () => {
      driver = await start();
    });
    afterEach(() => driver.close());

    it('fails the turn with a retryable timeout ModelError and gives up the request', async () => {
      const model = driver.start(IDLE_MS, 'hold');
      const seen: ToolCallDelta[] = [];

      const error = await (async () => {
        for await (const delta of model.stream(idleRequest())) seen.push(delta);
      })().catch((thrown: unknown) => thrown);

      expect(error).toBeInstanceOf(ModelError);
      expect(error).toMatchObject({ category: 'timeout', retryable: true });
      expect((error as Error).message).toContain(`${IDLE_MS} ms`);
      expect(seen.some((delta) => delta.type === 'call_start')).toBe(true);
      await driver.abandoned();
    });

    it('does not count the time the consumer spends on the deltas', async () => {
      const model = driver.start(IDLE_MS, 'end');
      const types: string[] = [];

      for await (const delta of model.stream(idleRequest())) {
        types.push(delta.type);
        // Longer than the limit, while the rest of the stream waits in the client's buffer.
        if (types.length <= 2) await new Promise((resolve) => setTimeout(resolve, IDLE_MS * 1.5));
      }

      expect(types).toContain('finish');
    });
  });
}
