// A --tools module for `switchyard run`, `agent` and `batch`: export a registry, an array of
// tools, or a function returning either. Safety annotations matter for batch resume: a read-only
// or idempotent tool may run again after a crash; any other tool never runs twice.
// Run: npm run build && OPENAI_API_KEY=… node dist/cli/main.js agent "is order 42 shipped?" \
//        --tools examples/batch-tools.ts
//      (TypeScript modules load through tsx, a devDependency here)
import { createToolRegistry, defineTool } from 'switchyard';

const lookUpOrder = defineTool<{ orderId: number }, { orderId: number; status: string }>({
  name: 'look_up_order',
  description: 'The status of an order.',
  inputSchema: {
    type: 'object',
    properties: { orderId: { type: 'integer' } },
    required: ['orderId'],
    additionalProperties: false,
  },
  safety: { readOnly: true },
  handler: ({ orderId }) => ({ orderId, status: orderId % 2 === 0 ? 'shipped' : 'packing' }),
});

const refundOrder = defineTool<{ orderId: number; reason: string }, { refunded: number }>({
  name: 'refund_order',
  description: 'Refund an order. Not idempotent: a second call would refund twice.',
  inputSchema: {
    type: 'object',
    properties: { orderId: { type: 'integer' }, reason: { type: 'string' } },
    required: ['orderId', 'reason'],
    additionalProperties: false,
  },
  safety: { sideEffectLevel: 'network' },
  handler: ({ orderId }) => ({ refunded: orderId }),
});

export default createToolRegistry([lookUpOrder, refundOrder]);
