import { describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/dispatch/dispatcher.js';
import type { ToolCallResult } from '../../src/dispatch/result.js';
import { composeToolCallers } from '../../src/middleware/compose-tool-callers.js';
import { dispatchTurn } from '../../src/streams/dispatch-turn.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';

const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } as const;
const handled: number[] = [];
const double = defineTool<{ n: number }, number>({
  name: 'double',
  description: 'doubles n',
  inputSchema: schema,
  safety: { readOnly: true },
  handler: ({ n }) => {
    handled.push(n);
    return 2 * n;
  },
});
const later = defineTool<{ n: number }, number>({
  name: 'later',
  description: 'doubles n, later',
  inputSchema: schema,
  safety: { readOnly: true },
  handler: async ({ n }) => 2 * n,
});
const registry = createToolRegistry([double, later]);

describe('dispatchNow: the one fast path', () => {
  it('answers an inline handler that returned a value with the result itself, no promise', () => {
    const dispatcher = createDispatcher({ registry });
    const answer = dispatcher.dispatchNow({ id: 'a', name: 'double', arguments: '{"n":2}' });
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answer).toMatchObject({ ok: true, result: 4, toolCallId: 'a' });
  });

  it('answers a refused call at once too', () => {
    const dispatcher = createDispatcher({ registry });
    const answer = dispatcher.dispatchNow({ id: 'a', name: 'nope', arguments: '{}' });
    expect(answer).toMatchObject({ ok: false, status: 'tool_not_found' });
  });

  it.each([
    ['a pending handler', () => createDispatcher({ registry }), 'later'],
    [
      'a layer',
      () =>
        createDispatcher({ registry, caller: composeToolCallers([(call, next) => next(call)]) }),
      'double',
    ],
    [
      'a listener on events$',
      () => {
        const dispatcher = createDispatcher({ registry });
        dispatcher.events$.subscribe(() => {});
        return dispatcher;
      },
      'double',
    ],
  ])('hands back a promise with %s on the way', async (_label, make, name) => {
    const answer = make().dispatchNow({ id: 'a', name, arguments: '{"n":2}' });
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toMatchObject({ ok: true, result: 4 });
  });

  it('is what dispatch resolves to', async () => {
    const dispatcher = createDispatcher({ registry, now: () => 0 });
    const call = { id: 'a', name: 'double', arguments: '{"n":3}' };
    expect(await dispatcher.dispatch(call)).toEqual(dispatcher.dispatchNow(call));
  });

  it('lets a turn of such calls run to its end within dispatchTurn, one call at a time', async () => {
    handled.length = 0;
    const dispatcher = createDispatcher({ registry });
    const calls = [1, 2, 3].map((n) => ({ id: `c${n}`, name: 'double', arguments: { n } }));
    const turn: Promise<ToolCallResult[]> = dispatchTurn(calls, {
      dispatcher,
      maxConcurrentTools: 1,
    });
    // Each call settled during its start, so the next one started in the same pass.
    expect(handled).toEqual([1, 2, 3]);
    expect((await turn).map((result) => result.result)).toEqual([2, 4, 6]);
  });
});
