import { describe, expect, it } from 'vitest';
import type { ToolCallEnvelope } from '../../src/dispatch/envelope.js';
import { HandoffArtifactError, InvalidOptionError } from '../../src/errors.js';
import { composeToolCallers } from '../../src/middleware/compose-tool-callers.js';
import type { HandoffRecord } from '../../src/middleware/handoff-record.js';
import {
  type HandoffArtifactOptions,
  withHandoffArtifact,
} from '../../src/middleware/with-handoff-artifact.js';
import { failedResult, fakeCall, okResult, recordingNext } from './fixtures.js';

const AT = Date.UTC(2026, 4, 6, 7, 8, 9);
const now = () => AT;
const returning = (value: unknown) => recordingNext((call) => okResult(call, value));

function optionError(options: unknown): InvalidOptionError {
  try {
    withHandoffArtifact(options as HandoffArtifactOptions);
  } catch (error) {
    if (InvalidOptionError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidOptionError');
}

describe('withHandoffArtifact options', () => {
  it.each([
    ['sink', { sink: 'queue' }],
    ['detect', { detect: {} }],
    ['keys', { keys: 'handoff' }],
    ['source', { source: '' }],
    ['strict', { strict: 'yes' }],
    ['now', { now: 1 }],
  ])('rejects a bad %s at construction', (option, options) => {
    expect(optionError(options).option).toBe(option);
  });
});

describe('withHandoffArtifact', () => {
  it('records a typed handoff from the result, marks the audit kind and calls the sink', async () => {
    const sunk: [HandoffRecord, ToolCallEnvelope][] = [];
    const payload = { targetPersona: 'reviewer', task: 'review PR 12', artifacts: ['pr/12'] };
    const call = fakeCall({ toolName: 'plan', callId: 'c5' });
    const result = await withHandoffArtifact({
      now,
      sink: (record, seen) => void sunk.push([record, seen]),
    })(call, returning({ ok: true, handoff: payload }));
    const record: HandoffRecord = {
      handoffId: 'handoff_c5',
      targetPersona: 'reviewer',
      targetKind: 'persona',
      reason: null,
      sourcePersona: null,
      task: 'review PR 12',
      summary: null,
      artifacts: ['pr/12'],
      payload,
      toolName: 'plan',
      toolCallId: 'c5',
      createdAt: new Date(AT).toISOString(),
    };
    expect(result.audit).toEqual({
      handoff: record,
      kind: 'handoff',
      layers: [{ name: 'with_handoff_artifact', status: 'emitted', handoffId: 'handoff_c5' }],
    });
    expect(sunk).toEqual([[record, call]]);
    expect(result.result).toEqual({ ok: true, handoff: payload });
  });

  it("accepts the reference system's target_persona_or_human payload and records the target's kind", async () => {
    const records: HandoffRecord[] = [];
    const layer = withHandoffArtifact({
      source: 'ship_captain',
      sink: (record) => void records.push(record),
    });
    const full = {
      source_persona: 'merge_captain',
      target_persona_or_human: { kind: 'persona', id: 'review_captain', label: 'review_captain' },
      task: 'Review the PR before landing',
      reason: 'CI red on rust suite',
      requested_capabilities: ['review'],
    };
    const human = {
      target_persona_or_human: { kind: 'human', id: 'lead-on-call' },
      task: 'Resolve incident',
      reason: 'Rollback pending',
    };
    const first = await layer(fakeCall({ callId: 'h1' }), returning({ __handoff: full }));
    const second = await layer(fakeCall({ callId: 'h2' }), returning({ __handoff: human }));
    expect(first.audit?.kind).toBe('handoff');
    expect(
      records.map((record) => [
        record.targetKind,
        record.targetPersona,
        record.sourcePersona,
        record.reason,
      ]),
    ).toEqual([
      ['persona', 'review_captain', 'merge_captain', 'CI red on rust suite'],
      ['human', 'lead-on-call', 'ship_captain', 'Rollback pending'],
    ]);
    expect(second.audit?.handoff).toMatchObject({ targetKind: 'human', task: 'Resolve incident' });
  });

  it('records a target of an unknown kind as invalid', async () => {
    const payload = { target_persona_or_human: { kind: 'robot', id: 'r2' } };
    const result = await withHandoffArtifact()(fakeCall(), returning({ handoff: payload }));
    expect(result.audit?.layers).toEqual([
      {
        name: 'with_handoff_artifact',
        status: 'invalid',
        error: 'withHandoffArtifact: handoff target kind must be "persona" or "human"; got "robot"',
      },
    ]);
  });

  it('reads a JSON string result, snake_case fields, ids and a policy override', async () => {
    const text = JSON.stringify({
      __handoff: {
        handoff_id: 'h-1',
        target_persona: 'ops',
        source_persona: 'planner',
        summary: 'ship it',
        policy_override: { sideEffectLevel: 'read_only' },
      },
    });
    const result = await withHandoffArtifact({ source: 'ignored' })(fakeCall(), returning(text));
    expect(result.audit?.handoff).toMatchObject({
      handoffId: 'h-1',
      targetPersona: 'ops',
      sourcePersona: 'planner',
      summary: 'ship it',
      policyOverride: { sideEffectLevel: 'read_only' },
    });
  });

  it('fills a missing source persona from source', async () => {
    const result = await withHandoffArtifact({ source: 'planner' })(
      fakeCall(),
      returning({ handoff: { targetPersona: 'ops' } }),
    );
    expect(result.audit?.handoff).toMatchObject({ sourcePersona: 'planner' });
  });

  it('looks in the default keys first, then in the extra keys', async () => {
    const layer = withHandoffArtifact({ keys: ['transfer'] });
    const extra = await layer(fakeCall(), returning({ transfer: { targetPersona: 'a' } }));
    expect(extra.audit?.handoff).toMatchObject({ targetPersona: 'a' });
    const both = await layer(
      fakeCall(),
      returning({ transfer: { targetPersona: 'a' }, handoff: { targetPersona: 'b' } }),
    );
    expect(both.audit?.handoff).toMatchObject({ targetPersona: 'b' });
  });

  it('uses what detect finds, and the keys when detect throws or finds nothing', async () => {
    const detected = await withHandoffArtifact({
      detect: (_call, result) => (result.result as { next: unknown }).next,
    })(fakeCall(), returning({ next: { targetPersona: 'qa' } }));
    expect(detected.audit?.handoff).toMatchObject({ targetPersona: 'qa' });
    const fallback = await withHandoffArtifact({
      detect: () => {
        throw new Error('detector bug');
      },
    })(fakeCall(), returning({ handoff: { targetPersona: 'qa' } }));
    expect(fallback.audit?.handoff).toMatchObject({ targetPersona: 'qa' });
  });

  it('leaves failed results and results without a payload unchanged', async () => {
    const failed = failedResult(fakeCall());
    expect(await withHandoffArtifact()(fakeCall(), async () => failed)).toBe(failed);
    const plain = okResult(fakeCall(), { answer: 42 });
    expect(await withHandoffArtifact()(fakeCall(), async () => plain)).toBe(plain);
    const notJson = okResult(fakeCall(), '{not json');
    expect(await withHandoffArtifact()(fakeCall(), async () => notJson)).toBe(notJson);
  });

  it('ignores a payload that is not an object, and throws on it when strict', async () => {
    const result = okResult(fakeCall(), { handoff: 'reviewer' });
    expect(await withHandoffArtifact()(fakeCall(), async () => result)).toBe(result);
    await expect(
      withHandoffArtifact({ strict: true })(fakeCall(), async () => result),
    ).rejects.toSatisfy((error) => HandoffArtifactError.isInstance(error));
  });

  it('records a malformed payload as invalid, and throws when strict', async () => {
    const next = returning({ handoff: { task: 'no target' } });
    const result = await withHandoffArtifact()(fakeCall(), next);
    expect(result.audit).toEqual({
      layers: [
        {
          name: 'with_handoff_artifact',
          status: 'invalid',
          error: 'withHandoffArtifact: a handoff needs a non-empty targetPersona',
        },
      ],
    });
    await expect(withHandoffArtifact({ strict: true })(fakeCall(), next)).rejects.toSatisfy(
      (error) => HandoffArtifactError.isInstance(error),
    );
  });

  it.each([
    ['artifacts', { targetPersona: 'a', artifacts: 'x' }],
    ['a non-string task', { targetPersona: 'a', task: 3 }],
    ['policyOverride', { targetPersona: 'a', policyOverride: 'open' }],
    ['a blank target', { targetPersona: '  ' }],
  ])('refuses a payload with bad %s', async (_label, payload) => {
    const result = await withHandoffArtifact()(fakeCall(), returning({ handoff: payload }));
    expect(result.audit?.layers?.[0]?.status).toBe('invalid');
  });

  it('turns a strict failure into a tool_middleware_exception result inside compose', async () => {
    const caller = composeToolCallers([withHandoffArtifact({ strict: true })]);
    const result = await caller(fakeCall(), returning({ handoff: {} }));
    expect(result.errorCategory).toBe('tool_middleware_exception');
    expect(result.audit?.layers?.[0]).toMatchObject({
      name: 'with_handoff_artifact',
      status: 'exception',
    });
  });

  it('records a failing sink without losing the handoff', async () => {
    const result = await withHandoffArtifact({
      sink: async () => {
        throw new Error('queue down');
      },
    })(fakeCall(), returning({ handoff: { targetPersona: 'ops' } }));
    expect(result.audit?.kind).toBe('handoff');
    expect(result.audit?.layers?.[0]).toMatchObject({ status: 'emitted', sinkError: 'queue down' });
  });
});
