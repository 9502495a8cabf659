import { describe, expect, it } from 'vitest';
import { toWireCategory } from '../../src/dispatch/error-taxonomy.js';
import {
  composeToolCallers,
  createDispatcher,
  createToolRegistry,
  defineTool,
  InvalidOptionError,
  withBudget,
} from '../../src/index.js';
import { deferred } from '../../src/testing/index.js';

const OBJECT = { type: 'object' } as const;

function paidTool(name: string, usd: number) {
  return defineTool({
    name,
    description: name,
    inputSchema: OBJECT,
    safety: { readOnly: true, spend: true },
    handler: (_args, runtime) => {
      runtime.reportCost({ usd });
      return `${name} done`;
    },
  });
}

const registry = createToolRegistry([paidTool('web_search', 0.25), paidTool('ocr', 1)]);

function dispatcherWith(budget: Parameters<typeof withBudget>[0]) {
  return createDispatcher({ registry, caller: composeToolCallers([withBudget(budget)]) });
}

describe('withBudget', () => {
  it('refuses calls once the tools reported the run’s dollars, with a message the model can act on', async () => {
    const dispatcher = dispatcherWith({ maxUsd: 1.5 });
    const statuses: string[] = [];
    for (const [index, name] of ['ocr', 'web_search', 'web_search', 'ocr'].entries()) {
      const result = await dispatcher.dispatch({ id: `c${index}`, name, arguments: {} });
      statuses.push(result.status);
    }
    expect(statuses).toEqual(['ok', 'ok', 'ok', 'budget_exceeded']);
    const refused = await dispatcher.dispatch({ id: 'c9', name: 'web_search', arguments: {} });
    expect(refused).toMatchObject({ ok: false, status: 'budget_exceeded' });
    expect(refused.error).toBe(
      'the tool budget of this run is spent ($1.50 of $1.50): answer with what you have',
    );
    expect(toWireCategory(refused.errorCategory)).toBe('permission_denied');
    expect(refused.audit?.layers).toEqual([
      expect.objectContaining({
        name: 'with_budget',
        status: 'blocked',
        scope: 'run',
        spentUsd: 1.5,
      }),
    ]);
  });

  it('keeps a tool to its own dollars and calls while the others go on', async () => {
    const dispatcher = dispatcherWith({
      perTool: { web_search: { maxUsd: 0.5 }, ocr: { maxCalls: 1 } },
    });
    const run = async (name: string) =>
      (await dispatcher.dispatch({ id: name, name, arguments: {} })).status;
    expect([await run('web_search'), await run('web_search'), await run('web_search')]).toEqual([
      'ok',
      'ok',
      'budget_exceeded',
    ]);
    expect(await run('ocr')).toBe('ok');
    const refused = await dispatcher.dispatch({ id: 'o2', name: 'ocr', arguments: {} });
    expect(refused.error).toBe('the ocr budget is spent (1 of 1 calls): answer with what you have');
  });

  it('counts calls as they enter, so concurrent calls cannot pass a call budget', async () => {
    const gate = deferred();
    let running = 0;
    const slow = defineTool({
      name: 'slow',
      description: 'd',
      inputSchema: OBJECT,
      safety: { readOnly: true },
      handler: async () => {
        running += 1;
        await gate.promise;
        return 'done';
      },
    });
    const dispatcher = createDispatcher({
      registry: createToolRegistry([slow]),
      caller: composeToolCallers([withBudget({ perTool: { slow: { maxCalls: 2 } } })]),
    });
    const calls = [1, 2, 3].map((id) =>
      dispatcher.dispatch({ id: `s${id}`, name: 'slow', arguments: {} }),
    );
    const third = await calls[2]!;
    expect(third.status).toBe('budget_exceeded');
    expect(running).toBe(2);
    gate.resolve();
    expect((await Promise.all(calls)).map((result) => result.status)).toEqual([
      'ok',
      'ok',
      'budget_exceeded',
    ]);
  });

  it('does not count calls the executor refuses anyway', async () => {
    const dispatcher = dispatcherWith({ perTool: { ocr: { maxCalls: 1 } } });
    const unknown = await dispatcher.dispatch({ id: 'u', name: 'nope', arguments: {} });
    expect(unknown.status).toBe('tool_not_found');
    expect((await dispatcher.dispatch({ id: 'o', name: 'ocr', arguments: {} })).status).toBe('ok');
  });

  it.each([
    [{}, /give maxUsd, maxTokens or perTool/],
    [{ maxUsd: -1 }, /maxUsd/],
    [{ perTool: { ocr: { maxCalls: 1.5 } } }, /perTool\.ocr\.maxCalls/],
    [{ perTool: { ocr: 3 } }, /perTool\.ocr must be/],
  ])('refuses the options %o', (options, message) => {
    expect(() => withBudget(options as never)).toThrow(InvalidOptionError);
    expect(() => withBudget(options as never)).toThrow(message);
  });
});
