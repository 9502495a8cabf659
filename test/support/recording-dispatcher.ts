import {
  composeToolCallers,
  createDispatcher,
  createToolRegistry,
  defineTool,
  type ToolCaller,
  type ToolCallResult,
  withAuditLog,
} from '../../src/index.js';

/** A dispatcher over `add` whose stack records every result and every receipt. */
export function recordingDispatcher(options: { readonly hold?: Promise<void> } = {}) {
  const results: ToolCallResult[] = [];
  const receipts: unknown[] = [];
  let inFlight = 0;
  let started = 0;
  let aborted = 0;
  let peak = 0;
  const add = defineTool<{ a: number; b: number }, number>({
    name: 'add',
    description: 'Add two numbers',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
      additionalProperties: false,
    },
    safety: { readOnly: true },
    handler: async ({ a, b }, runtime) => {
      inFlight += 1;
      started += 1;
      peak = Math.max(peak, inFlight);
      try {
        if (options.hold !== undefined) {
          await Promise.race([
            options.hold,
            new Promise((_, reject) =>
              runtime.signal?.addEventListener('abort', () => {
                aborted += 1;
                reject(runtime.signal?.reason);
              }),
            ),
          ]);
        }
        return a + b;
      } finally {
        inFlight -= 1;
      }
    },
  });
  const record: ToolCaller = async function record(call, next) {
    const result = await next(call);
    results.push(result);
    return result;
  };
  const dispatcher = createDispatcher({
    registry: createToolRegistry([add]),
    caller: composeToolCallers([
      withAuditLog(async (receipt) => {
        receipts.push(receipt);
      }),
      record,
    ]),
  });
  return {
    dispatcher,
    results,
    receipts,
    get peak() {
      return peak;
    },
    get inFlight() {
      return inFlight;
    },
    /** Handler runs begun, and runs that saw their signal abort. */
    get started() {
      return started;
    },
    get aborted() {
      return aborted;
    },
  };
}
