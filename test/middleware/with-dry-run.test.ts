import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import { InvalidOptionError } from '../../src/errors.js';
import { type DryRunOptions, withDryRun } from '../../src/middleware/with-dry-run.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import { closedSchema, fakeCall, recordingNext } from './fixtures.js';

function optionError(options: unknown): InvalidOptionError {
  try {
    withDryRun(options as DryRunOptions);
  } catch (error) {
    if (InvalidOptionError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidOptionError');
}

describe('withDryRun options', () => {
  it.each([
    ['only', { only: 'write' }],
    ['except', { except: [1] }],
    ['message', { message: 5 }],
  ])('rejects a bad %s at construction', (option, options) => {
    expect(optionError(options).option).toBe(option);
  });
});

describe('withDryRun', () => {
  it('previews a call instead of running it', async () => {
    const next = recordingNext();
    const call = fakeCall({ toolName: 'write', callId: 'c3', toolArgs: { path: 'a.txt' } });
    const result = await withDryRun()(call, next);
    expect(next.calls).toHaveLength(0);
    expect(result).toEqual({
      ok: true,
      status: 'dry_run',
      toolName: 'write',
      toolCallId: 'c3',
      arguments: { path: 'a.txt' },
      result: { dryRun: true, args: { path: 'a.txt' } },
      renderedResult: '(dry run) — write({"path":"a.txt"})',
      observation: '[dry run of write]\n(dry run) — write({"path":"a.txt"})\n',
      error: null,
      errorCategory: null,
      executor: null,
      executionDurationMs: null,
      emitOrder: 0,
      audit: { kind: 'think', layers: [{ name: 'with_dry_run', status: 'preview' }] },
    });
  });

  it('leads the preview with a custom message', async () => {
    const result = await withDryRun({ message: 'SHADOW' })(
      fakeCall({ toolArgs: {} }),
      recordingNext(),
    );
    expect(result.renderedResult).toBe('SHADOW — echo({})');
  });

  it('previews only the tools listed in only', async () => {
    const layer = withDryRun({ only: ['write'] });
    const next = recordingNext();
    expect((await layer(fakeCall({ toolName: 'write' }), next)).status).toBe('dry_run');
    const real = await layer(fakeCall({ toolName: 'read' }), next);
    expect(real.status).toBe('ok');
    expect(real.audit).toBeUndefined();
    expect(next.calls.map((call) => call.toolName)).toEqual(['read']);
  });

  it('runs the tools listed in except for real', async () => {
    const layer = withDryRun({ except: ['read'] });
    expect((await layer(fakeCall({ toolName: 'read' }), recordingNext())).status).toBe('ok');
    expect((await layer(fakeCall({ toolName: 'write' }), recordingNext())).status).toBe('dry_run');
  });

  it('lets except win over only', async () => {
    const layer = withDryRun({ only: ['write'], except: ['write'] });
    expect((await layer(fakeCall({ toolName: 'write' }), recordingNext())).status).toBe('ok');
  });

  it('passes a call the executor will refuse on, so the model learns its real mistake', async () => {
    const registry = createToolRegistry([
      { name: 'write', description: 'w', inputSchema: closedSchema('path'), handler: () => 'x' },
    ]);
    const dispatcher = createDispatcher({ registry, caller: withDryRun() });
    expect((await dispatcher.dispatch({ name: 'wirte', arguments: '{}' })).status).toBe(
      'tool_not_found',
    );
    expect((await dispatcher.dispatch({ name: 'write', arguments: '{"path":' })).status).toBe(
      'schema_violation',
    );
    const preview = await dispatcher.dispatch({ name: 'write', arguments: '{"path":"a"}' });
    expect(preview).toMatchObject({ ok: true, status: 'dry_run' });
  });
});
