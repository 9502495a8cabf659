import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import type { ToolCallEnvelope } from '../../src/dispatch/envelope.js';
import { boundRendered, contentText, renderValue } from '../../src/dispatch/render-output.js';
import {
  type ArtifactRef,
  cancelledResult,
  exceptionResult,
  RESERVED_STATUSES,
  resultContractViolation,
  shortCircuitResult,
} from '../../src/dispatch/result.js';
import { isToolOutput, toolOutput } from '../../src/dispatch/tool-output.js';
import { recordingTool } from '../../src/testing/recording-tool.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import { manualClock } from '../support/manual-clock.js';

describe('reserved statuses', () => {
  it("are the fixed words results use, durable execution's included", () => {
    expect([...RESERVED_STATUSES]).toEqual([
      'ok',
      'tool_not_found',
      'schema_violation',
      'consent_denied',
      'policy_blocked',
      'scope_violation',
      'executor_error',
      'redacted',
      'dry_run',
      'rate_limited',
      'timeout',
      'cancelled',
      'exception',
      'tool_middleware_exception',
      'in_doubt',
      'approval_required',
      'abandoned',
      'guardrail_tripped',
      'guardrail_halted',
      'budget_exceeded',
    ]);
  });
});

function dispatcherFor(respond: () => unknown, options: { maxRenderedChars?: number } = {}) {
  const tool = recordingTool({ name: 'produce' }).respondsWith(respond);
  const stored: Array<{ artifact: ArtifactRef; text: string }> = [];
  const dispatcher = createDispatcher({
    registry: createToolRegistry([tool.tool]),
    artifactStore: { put: (artifact, text) => stored.push({ artifact, text }) },
    ...options,
  });
  return {
    stored,
    run: () => dispatcher.dispatch({ id: 'c1', name: 'produce', arguments: {} }),
  };
}

describe('rendered results', () => {
  it('renders a string as it is', async () => {
    const result = await dispatcherFor(() => 'plain text').run();
    expect(result).toMatchObject({
      ok: true,
      result: 'plain text',
      renderedResult: 'plain text',
      observation: 'plain text',
      error: null,
      errorCategory: null,
    });
  });

  it('renders structured values as JSON and keeps the value', async () => {
    const value = { rows: [1, 2], next: null };
    const result = await dispatcherFor(() => value).run();
    expect(result.result).toEqual(value);
    expect(result.renderedResult).toBe('{"rows":[1,2],"next":null}');
  });

  it('renders undefined as empty text', async () => {
    const result = await dispatcherFor(() => undefined).run();
    expect(result).toMatchObject({ ok: true, renderedResult: '' });
  });

  it('measures execution time with the injected clock', async () => {
    const clock = manualClock();
    const tool = recordingTool({ name: 'slow' }).respondsWith(() => {
      clock.advance(42);
      return 'ok';
    });
    const dispatcher = createDispatcher({
      registry: createToolRegistry([tool.tool]),
      now: clock.now,
    });
    const result = await dispatcher.dispatch({ id: 'c1', name: 'slow', arguments: {} });
    expect(result.executionDurationMs).toBe(42);
  });
});

describe('toolOutput', () => {
  it('carries the value and renders the content blocks for the model', async () => {
    const result = await dispatcherFor(() =>
      toolOutput({
        value: { id: 7 },
        content: [
          { type: 'text', text: 'created #7' },
          { type: 'resource', uri: 'file:///tmp/7.json' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
      }),
    ).run();
    expect(result).toMatchObject({ ok: true, status: 'ok', result: { id: 7 } });
    expect(result.renderedResult).toBe(
      'created #7\n[resource file:///tmp/7.json]\n[image image/png]',
    );
    expect(result.content).toHaveLength(3);
  });

  it('turns isError into a failed tool_error result', async () => {
    const result = await dispatcherFor(() =>
      toolOutput({
        value: null,
        isError: true,
        content: [{ type: 'text', text: 'no such file: a.txt' }],
      }),
    ).run();
    expect(result).toMatchObject({
      ok: false,
      status: 'error',
      errorCategory: 'tool_error',
      renderedResult: 'no such file: a.txt',
      error: 'no such file: a.txt',
      observation: '[error from produce]\nno such file: a.txt\n[end of produce error]',
    });
    expect(result.content).toEqual([{ type: 'text', text: 'no such file: a.txt' }]);
  });

  it('is recognised by brand only', () => {
    expect(isToolOutput(toolOutput({ value: 1 }))).toBe(true);
    expect(isToolOutput({ value: 1, isError: true })).toBe(false);
    expect(isToolOutput(null)).toBe(false);
  });
});

describe('large outputs', () => {
  const head = 'H'.repeat(400);
  const middle = 'M'.repeat(1000);
  const tail = 'T'.repeat(100);
  const full = head + middle + tail;

  it('bounds the rendered text to head and tail with an artifact ref', async () => {
    const setup = dispatcherFor(() => full, { maxRenderedChars: 500 });
    const result = await setup.run();
    expect(result.ok).toBe(true);
    expect(result.result).toBe(full);
    expect(result.renderedResult.startsWith(head)).toBe(true);
    expect(result.renderedResult.endsWith(tail)).toBe(true);
    expect(result.renderedResult).not.toContain('M');
    expect(result.renderedResult).toContain(
      'output truncated: 1500 characters in full, kept as artifact artifact_c1',
    );
    expect(result.artifacts).toEqual([
      { id: 'artifact_c1', toolCallId: 'c1', mediaType: 'text/plain', length: 1500 },
    ]);
    expect(result.observation).toBe(result.renderedResult);
  });

  it('hands the full text to the artifact store', async () => {
    const setup = dispatcherFor(() => full, { maxRenderedChars: 500 });
    await setup.run();
    expect(setup.stored).toHaveLength(1);
    expect(setup.stored[0]?.text).toBe(full);
    expect(setup.stored[0]?.artifact.id).toBe('artifact_c1');
  });

  it('leaves outputs within the limit alone', async () => {
    const setup = dispatcherFor(() => 'x'.repeat(500), { maxRenderedChars: 500 });
    const result = await setup.run();
    expect(result.renderedResult).toBe('x'.repeat(500));
    expect(result.artifacts).toBeUndefined();
    expect(setup.stored).toEqual([]);
  });

  it('renders primitives exactly as JSON does', () => {
    const values = [0, -0, 1.5, -7, 1e21, 1e-7, 2 ** 53 + 2, Number.NaN, Infinity, -Infinity];
    for (const value of [...values, true, false, null]) {
      expect(renderValue(value)).toBe(JSON.stringify(value));
    }
    expect(renderValue('text')).toBe('text');
    expect(renderValue(undefined)).toBe('');
  });

  it('bounds structured values by their JSON text', () => {
    const bounded = boundRendered(renderValue({ big: 'y'.repeat(100) }), 'id', 50, undefined);
    expect(bounded.artifact?.length).toBe(110);
    expect(bounded.text.startsWith('{"big":"yyy')).toBe(true);
  });
});

describe('result builders', () => {
  const call = {
    toolName: 'rm',
    toolArgs: { path: '/' },
    callId: 'c9',
    turn: { emitOrder: 3 },
  } as unknown as ToolCallEnvelope;

  it('shortCircuitResult defaults to a failed result named by its status', () => {
    expect(shortCircuitResult(call, { status: 'policy_blocked' })).toEqual({
      ok: false,
      status: 'policy_blocked',
      toolName: 'rm',
      toolCallId: 'c9',
      arguments: { path: '/' },
      result: null,
      renderedResult: '',
      observation: '[blocked: rm — policy_blocked]',
      error: 'policy_blocked',
      errorCategory: 'policy_blocked',
      executor: null,
      executionDurationMs: null,
      emitOrder: 3,
    });
  });

  it('shortCircuitResult appends an error text and supports ok results', () => {
    const blocked = shortCircuitResult(call, {
      status: 'consent_denied',
      error: 'the user said no',
    });
    expect(blocked.observation).toBe('[blocked: rm — consent_denied]\nthe user said no');
    const dry = shortCircuitResult(call, {
      status: 'dry_run',
      ok: true,
      renderedResult: 'would delete /',
    });
    expect(dry).toMatchObject({
      ok: true,
      error: null,
      errorCategory: null,
      renderedResult: 'would delete /',
    });
  });

  it('exceptionResult records the layer and time', () => {
    const result = exceptionResult(call, new Error('bad layer'), { layer: 'audit', now: () => 0 });
    expect(result).toMatchObject({
      status: 'tool_middleware_exception',
      errorCategory: 'tool_middleware_exception',
      error: 'bad layer',
    });
    expect(result.audit?.layers).toEqual([
      { name: 'audit', status: 'exception', error: 'bad layer', at: '1970-01-01T00:00:00.000Z' },
    ]);
  });

  it('cancelledResult is a cancelled failure', () => {
    expect(cancelledResult(call, 'stop')).toMatchObject({
      ok: false,
      status: 'cancelled',
      errorCategory: 'cancelled',
      error: 'stop',
    });
  });

  it.each([
    [null, 'must resolve to a result object; got null'],
    ['ok', 'got string'],
    [{ status: 'ok', toolName: 'x' }, 'boolean `ok`'],
    [{ ok: true, toolName: 'x' }, '`status`'],
    [{ ok: true, status: 'ok' }, '`toolName`'],
  ])('resultContractViolation explains %j', (value, text) => {
    expect(resultContractViolation(value)).toContain(text);
  });

  it('resultContractViolation accepts a well-formed result', () => {
    expect(resultContractViolation(shortCircuitResult(call, { status: 'x' }))).toBeNull();
  });

  it('contentText joins blocks line by line', () => {
    expect(contentText([])).toBe('');
    expect(
      contentText([
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ]),
    ).toBe('a\nb');
  });
});
