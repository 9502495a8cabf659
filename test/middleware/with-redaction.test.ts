import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import type { ToolCallResult } from '../../src/dispatch/result.js';
import { toolOutput } from '../../src/dispatch/tool-output.js';
import { CancelledError, InvalidOptionError } from '../../src/errors.js';
import {
  type RedactionInput,
  type RedactionOptions,
  type Redactor,
  withRedaction,
} from '../../src/middleware/with-redaction.js';
import type { JsonObject } from '../../src/tools/json.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import { failedResult, fakeCall, okResult, recordingNext } from './fixtures.js';

const SECRET = 's3cret-token';

function optionError(redactor: unknown, options?: unknown): InvalidOptionError {
  try {
    withRedaction(redactor as Redactor, options as RedactionOptions);
  } catch (error) {
    if (InvalidOptionError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidOptionError');
}

/** Drops `token` on the way in; masks the secret anywhere in the result on the way out. */
const scrubber: Redactor = ({ phase, args, result }) => {
  if (phase === 'in') {
    const { token: _token, ...rest } = args;
    return { args: rest };
  }
  return { result: JSON.parse(JSON.stringify(result ?? null).replaceAll(SECRET, '[redacted]')) };
};

function leaks(result: ToolCallResult): boolean {
  return JSON.stringify(result).includes(SECRET);
}

describe('withRedaction options', () => {
  it('rejects a redactor that is not a function and a bad maxRenderedChars', () => {
    expect(optionError('scrub').option).toBe('redactor');
    expect(optionError(() => ({}), { maxRenderedChars: -1 }).option).toBe('maxRenderedChars');
  });
});

describe('withRedaction', () => {
  it('hands the tool the redacted arguments and records which changed', async () => {
    const next = recordingNext();
    const call = fakeCall({ toolArgs: { text: 'hi', token: SECRET } });
    const result = await withRedaction(scrubber)(call, next);
    expect(next.calls[0]?.toolArgs).toEqual({ text: 'hi' });
    expect(result.audit).toEqual({
      metadata: { redactedIn: ['token'], redactedOut: ['result'] },
      layers: [{ name: 'with_redaction', status: 'ok' }],
    });
  });

  it('gives the in phase a copy, so editing it in place leaves the original call alone', async () => {
    const next = recordingNext();
    const call = fakeCall({ toolArgs: { text: 'hi', token: SECRET } });
    await withRedaction(({ phase, args }) => {
      if (phase !== 'in') return undefined;
      delete args.token;
      return { args };
    })(call, next);
    expect(next.calls[0]?.toolArgs).toEqual({ text: 'hi' });
    expect(call.toolArgs).toEqual({ text: 'hi', token: SECRET });
  });

  it('records the fields the redactor names', async () => {
    const result = await withRedaction(({ phase, args }) =>
      phase === 'in' ? { args, redactedFields: ['headers.authorization'] } : { redactedFields: [] },
    )(fakeCall(), recordingNext());
    expect(result.audit?.metadata).toEqual({
      redactedIn: ['headers.authorization'],
      redactedOut: [],
    });
  });

  it('scrubs the structured result, the rendered text and the observation alike', async () => {
    const registry = createToolRegistry([
      {
        name: 'fetch_user',
        description: 'u',
        inputSchema: { type: 'object', properties: { token: { type: 'string' } } },
        safety: { readOnly: true },
        handler: () => ({ name: 'ana', apiKey: SECRET }),
      },
    ]);
    const dispatcher = createDispatcher({ registry, caller: withRedaction(scrubber) });
    const result = await dispatcher.dispatch({
      name: 'fetch_user',
      arguments: JSON.stringify({ token: SECRET }),
    });
    expect(result.ok).toBe(true);
    expect(result.result).toEqual({ name: 'ana', apiKey: '[redacted]' });
    expect(result.renderedResult).toBe('{"name":"ana","apiKey":"[redacted]"}');
    expect(result.observation).toBe(result.renderedResult);
    expect(result.arguments).toEqual({});
    expect(leaks(result)).toBe(false);
  });

  it('drops content blocks rendered from the unredacted output', async () => {
    const registry = createToolRegistry([
      {
        name: 'cat',
        description: 'c',
        inputSchema: { type: 'object' },
        safety: { readOnly: true },
        handler: () =>
          toolOutput({ value: SECRET, content: [{ type: 'text', text: `key ${SECRET}` }] }),
      },
    ]);
    const dispatcher = createDispatcher({ registry, caller: withRedaction(scrubber) });
    const result = await dispatcher.dispatch({ name: 'cat', arguments: '{}' });
    expect(result.content).toBeUndefined();
    expect(leaks(result)).toBe(false);
  });

  it('scrubs the error text of a failed call wherever it appears', async () => {
    const next = recordingNext((call) => failedResult(call, `bad token ${SECRET}`));
    const result = await withRedaction(({ phase, error }) =>
      phase === 'out' && error !== null ? { error: error.replaceAll(SECRET, '***') } : undefined,
    )(fakeCall(), next);
    expect(result.error).toBe('bad token ***');
    expect(result.renderedResult).toBe('bad token ***');
    expect(result.observation).toBe('[error from echo]\nbad token ***\n[end of echo error]');
    expect(result.audit?.metadata).toEqual({ redactedIn: [], redactedOut: ['error'] });
    expect(leaks(result)).toBe(false);
  });

  it('replaces an observation it cannot find the old text in (fail closed)', async () => {
    const next = recordingNext((call) => ({
      ...okResult(call, SECRET),
      observation: `custom: ${SECRET.toUpperCase()}`,
    }));
    const result = await withRedaction(({ phase }) => (phase === 'out' ? { result: 'clean' } : {}))(
      fakeCall(),
      next,
    );
    expect(result.observation).toBe('clean');
  });

  it('bounds the re-rendered text', async () => {
    const next = recordingNext((call) => okResult(call, 'x'.repeat(50)));
    const result = await withRedaction(({ phase, result }) => (phase === 'out' ? { result } : {}), {
      maxRenderedChars: 10,
    })(fakeCall(), next);
    expect(result.renderedResult).toBe(
      'xxxxxxxxxx\n[… redacted output truncated to 10 of 50 characters …]',
    );
    expect(result.result).toBe('x'.repeat(50));
  });

  it('keeps a result the redactor leaves alone, with the metadata of inner layers', async () => {
    const next = recordingNext((call) => ({
      ...okResult(call),
      audit: { metadata: { origin: 'inner' } },
    }));
    const result = await withRedaction(() => undefined)(fakeCall(), next);
    expect(result.result).toBe('done');
    expect(result.audit?.metadata).toEqual({ origin: 'inner', redactedIn: [], redactedOut: [] });
  });

  it('shows the redactor the safe arguments and the call on the way out', async () => {
    const inputs: RedactionInput[] = [];
    await withRedaction((input) => {
      inputs.push(input);
      return input.phase === 'in' ? { args: { text: 'safe' } } : {};
    })(fakeCall({ toolArgs: { text: SECRET } }), recordingNext());
    expect(inputs.map((input) => [input.phase, input.args, input.result])).toEqual([
      ['in', { text: SECRET }, null],
      ['out', { text: 'safe' }, 'done'],
    ]);
    expect(inputs[1]?.call.toolName).toBe('echo');
  });

  it('stops the call when the redactor fails on the way in, keeping the arguments off the result', async () => {
    const next = recordingNext();
    const result = await withRedaction(({ phase }) => {
      if (phase === 'in') throw new Error('parser crashed');
      return {};
    })(fakeCall({ toolArgs: { token: SECRET } }), next);
    expect(next.calls).toHaveLength(0);
    expect(result).toMatchObject({
      ok: false,
      status: 'policy_blocked',
      errorCategory: 'policy_blocked',
    });
    expect(result.audit?.layers).toEqual([
      { name: 'with_redaction', status: 'failed', phase: 'in', error: 'parser crashed' },
    ]);
    expect(leaks(result)).toBe(false);
  });

  it('stops the call when the redactor returns arguments that are not an object', async () => {
    const next = recordingNext();
    const result = await withRedaction(() => ({ args: 'nope' as unknown as JsonObject }))(
      fakeCall(),
      next,
    );
    expect(next.calls).toHaveLength(0);
    expect(result.status).toBe('policy_blocked');
  });

  it('withholds the output when the redactor fails on the way out (fail closed)', async () => {
    const next = recordingNext((call) => okResult(call, { key: SECRET }));
    const result = await withRedaction(({ phase }) => {
      if (phase === 'out') throw new Error('scrubber crashed');
      return {};
    })(fakeCall(), next);
    expect(next.calls).toHaveLength(1);
    expect(result).toMatchObject({
      ok: true,
      status: 'redacted',
      result: null,
      error: null,
      renderedResult: '[output of echo withheld: it could not be checked for secrets]',
    });
    expect(result.observation).toBe(result.renderedResult);
    expect(result.audit?.layers).toEqual([
      { name: 'with_redaction', status: 'withheld', phase: 'out', error: 'scrubber crashed' },
    ]);
    expect(leaks(result)).toBe(false);
  });

  it('withholds the error text of a failed call too', async () => {
    const next = recordingNext((call) => failedResult(call, SECRET));
    const result = await withRedaction(({ phase }) => {
      if (phase === 'out') throw new Error('no');
      return {};
    })(fakeCall(), next);
    expect(result.ok).toBe(false);
    expect(result.error).toBe(result.renderedResult);
    expect(leaks(result)).toBe(false);
  });

  it('lets a cancellation thrown by the redactor propagate', async () => {
    const pending = withRedaction(() => {
      throw new CancelledError();
    })(fakeCall(), recordingNext());
    await expect(pending).rejects.toSatisfy((error) => CancelledError.isInstance(error));
  });
});
