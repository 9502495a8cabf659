import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentLoop, CancelledError, ModelError } from '../../src/index.js';
import { deferred } from '../../src/testing/index.js';
import { readWriteTools } from '../agent/support.js';
import { answerTurn, callsTurn, type ProviderDriver, rateLimitedTurn } from './provider-driver.js';

/**
 * The agent suite every provider package runs with its own drivers: what the loop does with a
 * streamed turn (eager starts, retractions, retries, cancellation) and what it tells the model must
 * not depend on which API the model speaks. Each runs through the real SDK against a loopback wire
 * server.
 */
export function agentProviderSuite(name: string, start: () => Promise<ProviderDriver>): void {
  describe(`agentLoop over ${name} (real SDK, loopback server)`, () => {
    // A server per test: a failing test leaves no queued replies or open streams to the next.
    let driver: ProviderDriver;
    beforeEach(async () => {
      driver = await start();
    });
    afterEach(() => driver.close());

    /** The error flag a result carries on a provider that has one. */
    const flagged = (isError: boolean) => (driver.flagsErrors ? { isError } : {});

    it('runs a streamed turn of fragmented calls and sends the results back in planner order', async () => {
      const { read, write, registry } = readWriteTools();
      driver.reply(
        callsTurn(
          [
            { id: 'c1', name: 'write', arguments: ['{"path":', '"out.txt"}'] },
            { id: 'c2', name: 'read', arguments: ['', '{"pa', 'th": "a.md"}'] },
          ],
          { text: 'On it.' },
        ),
        answerTurn('Both done.'),
      );
      const run = await agentLoop({ task: 'copy', model: driver.model(), tools: registry });
      expect(run.status).toBe('completed');
      expect(run.text).toBe('Both done.');
      expect(run.results.map((r) => [r.toolCallId, r.status])).toEqual([
        ['c1', 'ok'],
        ['c2', 'ok'],
      ]);
      expect(write.callCount).toBe(1);
      expect(read.lastCall?.args).toEqual({ path: 'a.md' });
      const sent = driver.sent();
      expect(sent.calls.map((call) => [call.id, call.name])).toEqual([
        ['c1', 'write'],
        ['c2', 'read'],
      ]);
      expect(sent.results).toEqual([
        { toolCallId: 'c1', content: JSON.stringify({ path: 'out.txt' }), ...flagged(false) },
        { toolCallId: 'c2', content: 'text of a.md', ...flagged(false) },
      ]);
      expect(run.usage).toEqual({ inputTokens: 20, outputTokens: 40 });
    });

    it('starts a safe call while the model is still streaming the next one', async () => {
      const { read, registry } = readWriteTools();
      const release = deferred<void>();
      driver.reply(
        callsTurn(
          [
            { id: 'r1', name: 'read', arguments: ['{"path":"a"}'] },
            { id: 'r2', name: 'read', arguments: ['{"path":"b"}'] },
          ],
          // The stream stops once r2 has opened: r1 is complete and can only run eagerly.
          { pause: { afterStartOf: 'r2', until: release.promise } },
        ),
        answerTurn('ok'),
      );
      const running = agentLoop({ task: 't', model: driver.model(), tools: registry });
      const first = await read.nextCall();
      expect(first.callId).toBe('r1');
      expect(read.callCount).toBe(1);
      release.resolve();
      const run = await running;
      expect(run.results.map((r) => r.toolCallId)).toEqual(['r1', 'r2']);
      expect(read.callCount).toBe(2);
    });

    it('retracts a call cut off by an unsafe finish: it never runs, the model is told why', async () => {
      const { write, registry } = readWriteTools();
      driver.reply(
        callsTurn([{ id: 'w1', name: 'write', arguments: ['{"path":"x', '.txt","te'] }], {
          finish: 'cut_off',
        }),
        answerTurn('I will retry later.'),
      );
      const run = await agentLoop({ task: 't', model: driver.model(), tools: registry });
      expect(run.status).toBe('completed');
      expect(write.callCount).toBe(0);
      expect(run.turns[0]?.retracted.map((r) => [r.toolCallId, r.reason])).toEqual([
        ['w1', 'cut_off'],
      ]);
      const sent = driver.sent();
      expect(sent.calls).toEqual([
        {
          id: 'w1',
          name: 'write',
          arguments: driver.replayOfBrokenArguments('{"path":"x.txt","te'),
        },
      ]);
      expect(sent.results).toEqual([
        {
          toolCallId: 'w1',
          content: expect.stringMatching(new RegExp(`cut off.*'${driver.cutOffReason}'`)),
          ...flagged(true),
        },
      ]);
    });

    it('refuses malformed JSON with a repair message, and an unknown tool with the tool list', async () => {
      const { write, registry } = readWriteTools();
      driver.reply(
        callsTurn([
          { id: 'bad', name: 'write', arguments: ['{"path": "a",, }'] },
          { id: 'who', name: 'delete', arguments: ['{}'] },
        ]),
        answerTurn('Sorry.'),
      );
      const run = await agentLoop({ task: 't', model: driver.model(), tools: registry });
      expect(run.status).toBe('completed');
      expect(write.callCount).toBe(0);
      // Whole calls, so the dispatcher answers them: one result each, never run.
      expect(run.results.map((r) => [r.toolCallId, r.status])).toEqual([
        ['bad', 'schema_violation'],
        ['who', 'tool_not_found'],
      ]);
      expect(run.turns[0]?.retracted).toEqual([]);
      const sent = driver.sent();
      // Replayed under the names the model used, so each answer pairs with its call.
      expect(sent.calls.map((call) => [call.id, call.name])).toEqual([
        ['bad', 'write'],
        ['who', 'delete'],
      ]);
      expect(sent.calls[0]?.arguments).toEqual(driver.replayOfBrokenArguments('{"path": "a",, }'));
      expect(sent.results).toEqual([
        { toolCallId: 'bad', content: expect.stringMatching(/JSON/), ...flagged(true) },
        { toolCallId: 'who', content: expect.stringContaining('read'), ...flagged(true) },
      ]);
    });

    it('retries a turn that a transient error frame broke mid-stream, then completes', async () => {
      const { registry } = readWriteTools();
      driver.reply(
        callsTurn([], { text: 'Work', finish: 'error' }),
        answerTurn('Done after a retry.'),
      );
      const run = await agentLoop({
        task: 't',
        model: driver.model(),
        tools: registry,
        sleep: async () => {},
      });
      expect(run.status).toBe('completed');
      expect(run.text).toBe('Done after a retry.');
      expect(run.turns.map((turn) => turn.outcome)).toEqual(['failed', 'completed']);
      expect(run.turns[0]?.error).toMatchObject({
        provider: driver.provider,
        category: driver.errorFrameCategory,
        retryable: true,
      });
    });

    it('fails with a classified ModelError on a 429 when retries are off', async () => {
      const { registry } = readWriteTools();
      driver.reply(rateLimitedTurn);
      const run = await agentLoop({
        task: 't',
        model: driver.model(),
        tools: registry,
        maxModelRetries: 0,
      });
      expect(run.status).toBe('failed');
      expect(ModelError.isInstance(run.error)).toBe(true);
      expect(run.error).toMatchObject({
        provider: driver.provider,
        category: 'rate_limit',
        status: 429,
      });
    });

    it('is cancelled by an abort mid-stream: the eager call is stopped, the held one never runs', async () => {
      const { read, write, registry } = readWriteTools();
      read.hangs({ untilAborted: true });
      driver.reply(
        callsTurn(
          [
            { id: 'r1', name: 'read', arguments: ['{"path":"a"}'] },
            { id: 'w1', name: 'write', arguments: ['{"path":"b"}'] },
          ],
          { finish: 'held' },
        ),
      );
      const controller = new AbortController();
      const running = agentLoop({
        task: 't',
        model: driver.model(),
        tools: registry,
        signal: controller.signal,
      });
      await read.nextCall();
      controller.abort();
      const run = await running;
      expect(run.status).toBe('cancelled');
      expect(CancelledError.isInstance(run.error)).toBe(true);
      expect(read.lastCall?.signal.aborted).toBe(true);
      expect(write.callCount).toBe(0);
      // The cut turn failed rather than passing for a finished one: no half response to continue.
      expect(run.turns.map((turn) => turn.outcome)).toEqual(['failed']);
      expect(CancelledError.isInstance(run.turns[0]?.error)).toBe(true);
      expect(run.transcript).toEqual([{ role: 'user', text: 't' }]);
      // The held response's connection is dropped, not left for the server to time out.
      await driver.lastRequest().abandoned;
    });
  });
}
