import type { JsonObject, JsonSchema } from '../../../src/tools/json.js';

/**
 * Tool schemas an attacker writes into a server's listing, each with the argument that makes a
 * backtracking engine take exponential time on it (64 to 100 characters: longer than any machine
 * can wait for). Every call must come back `schema_violation`, at once.
 */
export interface HostileCall {
  readonly name: string;
  readonly inputSchema: JsonSchema;
  readonly args: JsonObject;
}

const long = 'a'.repeat(64);

export const HOSTILE_CALLS: readonly HostileCall[] = [
  {
    name: 'nested_quantifier',
    inputSchema: { type: 'object', properties: { id: { type: 'string', pattern: '^(a+)+$' } } },
    args: { id: `${long}!` },
  },
  {
    name: 'overlapping_alternation',
    inputSchema: { type: 'object', properties: { id: { type: 'string', pattern: '^(a|a?)+$' } } },
    args: { id: `${long}!` },
  },
  {
    name: 'email_in_defs',
    inputSchema: {
      type: 'object',
      properties: { to: { type: 'array', items: { $ref: '#/$defs/email' } } },
      $defs: {
        email: {
          type: 'string',
          pattern:
            '^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$',
        },
      },
    },
    args: { to: ['ok@example.com', `${'a'.repeat(100)}!`] },
  },
  {
    name: 'pattern_properties_key',
    inputSchema: {
      type: 'object',
      patternProperties: { '^(a+)+$': { type: 'string' } },
      additionalProperties: false,
    },
    args: { [`${long}!`]: 'x' },
  },
  {
    name: 'property_names',
    inputSchema: { type: 'object', propertyNames: { pattern: '^(\\w+\\s?)*$' } },
    args: { [`${'a'.repeat(100)}!`]: 1 },
  },
];
