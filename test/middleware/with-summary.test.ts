import { describe, expect, it } from 'vitest';
import { CancelledError, InvalidOptionError } from '../../src/errors.js';
import { composeToolCallers } from '../../src/middleware/compose-tool-callers.js';
import { withDryRun } from '../../src/middleware/with-dry-run.js';
import { withRequiredReason } from '../../src/middleware/with-required-reason.js';
import { type SummaryFormat, withSummary } from '../../src/middleware/with-summary.js';
import { fakeCall, okResult, recordingNext } from './fixtures.js';

describe('withSummary', () => {
  it('rejects a format that is not a function', () => {
    const error = captured(() => withSummary('x' as unknown as SummaryFormat));
    expect(InvalidOptionError.isInstance(error)).toBe(true);
    expect((error as InvalidOptionError).option).toBe('format');
  });

  it('puts the formatted one-liner on audit.summary', async () => {
    const seen: unknown[] = [];
    const layer = withSummary((call, result) => {
      seen.push([call.toolName, result.result]);
      return `Ran ${call.toolName}`;
    });
    const result = await layer(fakeCall(), recordingNext());
    expect(seen).toEqual([['echo', 'done']]);
    expect(result.audit).toEqual({
      summary: 'Ran echo',
      layers: [{ name: 'with_summary', status: 'ok' }],
    });
  });

  it('awaits an async format', async () => {
    const result = await withSummary(async () => 'later')(fakeCall(), recordingNext());
    expect(result.audit?.summary).toBe('later');
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('bad format');
      },
    ],
    ['returns an empty string', () => ''],
    ['returns undefined', () => undefined],
    ['returns a number', () => 7 as unknown as string],
  ])('leaves the result unchanged when the format %s', async (_label, format) => {
    const original = okResult(fakeCall());
    const result = await withSummary(format as SummaryFormat)(fakeCall(), async () => original);
    expect(result).toBe(original);
  });

  it('lets a cancellation thrown by the format propagate', async () => {
    const pending = withSummary(() => {
      throw new CancelledError();
    })(fakeCall(), recordingNext());
    await expect(pending).rejects.toSatisfy((error) => CancelledError.isInstance(error));
  });

  it('summarises what an inner layer short-circuited', async () => {
    const caller = composeToolCallers([
      withSummary((call, result) => `${call.toolName}: ${result.status}`),
      withDryRun(),
    ]);
    const result = await caller(fakeCall(), recordingNext());
    expect(result.audit?.summary).toBe('echo: dry_run');
    expect(result.audit?.layers?.map((layer) => layer.name)).toEqual([
      'with_dry_run',
      'with_summary',
    ]);
  });

  it('replaces the model reason when it sits outside withRequiredReason', async () => {
    const caller = composeToolCallers([
      withSummary(() => 'host summary'),
      withRequiredReason().caller,
    ]);
    const result = await caller(
      fakeCall({ toolArgs: { reason: 'model reason' } }),
      recordingNext(),
    );
    expect(result.audit?.summary).toBe('host summary');
  });
});

function captured(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}
