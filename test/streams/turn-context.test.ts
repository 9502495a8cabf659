import { describe, expect, it } from 'vitest';
import {
  createDispatcher,
  createToolRegistry,
  defineTool,
  dispatchTurn,
  type ToolRuntime,
} from '../../src/index.js';

/** A tool that answers with the context it was handed, and one that does not ask for it. */
function contextTools() {
  const seen: unknown[] = [];
  const readContext = defineTool({
    name: 'read_context',
    description: 'Answers with its context',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    injected: ['context'],
    safety: { readOnly: true, idempotent: true },
    retry: { maxAttempts: 2, initialDelayMs: 0 },
    handler: (_args, runtime: ToolRuntime) => {
      seen.push(runtime.context);
      if (seen.length === 1 && (runtime.context as { fail?: boolean })?.fail === true) {
        throw Object.assign(new Error('try again'), { code: 'ECONNRESET' });
      }
      return runtime.context ?? null;
    },
  });
  const blind = defineTool({
    name: 'blind',
    description: 'Lists no injected values',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    handler: (_args, runtime: ToolRuntime) => runtime.context ?? 'none',
  });
  const dispatcher = createDispatcher({
    registry: createToolRegistry([readContext, blind]),
    context: { from: 'dispatcher' },
  });
  return { dispatcher, seen };
}

describe("a turn's own context", () => {
  it("replaces the dispatcher's context for the tools that list it, in this turn only", async () => {
    const { dispatcher } = contextTools();
    const step = { from: 'turn' };
    const calls = [
      { id: 'a', name: 'read_context', arguments: {} },
      { id: 'b', name: 'blind', arguments: {} },
    ];
    const [own, blind] = await dispatchTurn(calls, { dispatcher, context: step });
    expect(own?.result).toBe(step);
    expect(blind?.result).toBe('none');
    const [plain] = await dispatchTurn(calls.slice(0, 1), { dispatcher });
    expect(plain?.result).toEqual({ from: 'dispatcher' });
  });

  it('reaches every attempt of a retried call, and a call dispatched on its own', async () => {
    const { dispatcher, seen } = contextTools();
    const step = { fail: true };
    const [retried] = await dispatchTurn([{ id: 'a', name: 'read_context', arguments: {} }], {
      dispatcher,
      context: step,
    });
    expect(retried).toMatchObject({ ok: true, attempts: 2 });
    expect(seen).toEqual([step, step]);
    const single = await dispatcher.dispatch(
      { id: 'b', name: 'read_context', arguments: {} },
      { context: 'own' },
    );
    expect(single.result).toBe('own');
  });
});
