// docs/json-schema.md: formats asserted or annotated, schemas registered by URI, typos refused.
// Run: npm run build && npx tsx examples/json-schema.ts
import { createDispatcher, createToolRegistry, defineTool, ToolDefinitionError } from 'switchyard';
import { SchemaValidator } from 'switchyard/tools';

// Nothing is fetched: a $ref to another document resolves to a schema registered by its URI.
const validator = new SchemaValidator({
  formats: 'assert', // the default: a malformed email never reaches the handler
  schemas: {
    'https://example.com/schemas/point.json': {
      type: 'array',
      prefixItems: [{ type: 'number' }, { type: 'number' }],
      items: false,
    },
  },
});
const invite = defineTool<{ email: string; at: [number, number] }, string>(
  {
    name: 'invite',
    description: 'Invite someone to a place.',
    inputSchema: {
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        at: { $ref: 'https://example.com/schemas/point.json' },
      },
      required: ['email', 'at'],
      additionalProperties: false,
    },
    safety: { sideEffectLevel: 'network' },
    handler: ({ email }) => `invited ${email}`,
  },
  validator, // defined with the validator that knows point.json
);

const dispatcher = createDispatcher({ registry: createToolRegistry([invite], { validator }) });

const bad = await dispatcher.dispatch({
  id: 'call_1',
  name: 'invite',
  arguments: '{"email": "not an email", "at": [1, 2]}',
});
console.log(bad.status, bad.error); // schema_violation, "- email: must be a string in format "email"; …"

const good = await dispatcher.dispatch({
  id: 'call_2',
  name: 'invite',
  arguments: { email: 'ada@example.com', at: [48.85, 2.35] },
});
console.log(good.status, good.result); // ok invited ada@example.com

// A keyword that would silently validate nothing is refused where the tool is defined.
try {
  defineTool({
    name: 'typo',
    description: 'A schema with a slip.',
    inputSchema: { type: 'object', properties: { q: { type: 'string' } }, requried: ['q'] },
    handler: () => null,
  });
} catch (error) {
  if (!ToolDefinitionError.isInstance(error)) throw error;
  console.log(error.rule, error.message); // schema_invalid … "requried" at # is unknown; did you mean "required"?
}
