// The order tools of the adapters' restart tests: each execution leaves one line in a ledger file,
// so a test counts side effects across processes.
import { appendFileSync } from 'node:fs';
import { defineTool } from '../../src/index.js';

/** The arguments of every order tool: one order id. */
export const ORDER_SCHEMA = {
  type: 'object',
  properties: { order: { type: 'string' } },
  required: ['order'],
  additionalProperties: false,
} as const;

/**
 * A side-effecting order tool that appends `<name> <order>` to `ledger` and answers the same;
 * `destructive` tools wait for approval in a journal opened with `approvals`.
 */
export function ledgerOrderTool(name: string, ledger: string, destructive: boolean) {
  return defineTool<{ order: string }, string>({
    name,
    description: `${name} an order`,
    inputSchema: ORDER_SCHEMA,
    safety: { sideEffectLevel: 'network', destructive },
    handler: async ({ order }) => {
      appendFileSync(ledger, `${name} ${order}\n`);
      return `${name} ${order}`;
    },
  });
}
