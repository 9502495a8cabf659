import type { JsonObject, JsonSchema } from 'switchyard';
import type { BinderRequest } from 'switchyard/middleware';
import { describe, expect, it } from 'vitest';
import { createLexicalBinder } from '../src/lexical-binder.js';

const bind = (intent: string, schema: JsonSchema, partialArgs: JsonObject = {}) =>
  createLexicalBinder()({
    tool: 't',
    description: '',
    intent,
    partialArgs,
    schema,
    system: '',
    prompt: '',
    signal: new AbortController().signal,
  } satisfies BinderRequest);

const object = (properties: object, required: string[]) => ({
  type: 'object',
  properties,
  required,
});

describe('the lexical binder', () => {
  it('puts each number on the property named just before it (simple_python_0)', async () => {
    const schema = object(
      { height: { type: 'integer' }, base: { type: 'integer' }, unit: { type: 'string' } },
      ['base', 'height'],
    );
    const bound = await bind(
      'Find the area of a triangle with a base of 10 units and height of 5 units.',
      schema,
    );
    expect(bound.data).toEqual({ base: 10, height: 5 });
  });

  it('takes enum values, quoted text, dates and capitalised names by type', async () => {
    const schema = object(
      {
        city: { type: 'string' },
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
        date: { type: 'string', format: 'date' },
        note: { type: 'string' },
      },
      ['city', 'date', 'note'],
    );
    const bound = await bind(
      'Weather in New York City on March 3, 2024 in Fahrenheit, tagged "trip".',
      schema,
    );
    expect(bound.data).toEqual({
      city: 'New York City',
      date: '2024-03-03',
      note: 'trip',
      unit: 'fahrenheit',
    });
  });

  it('takes e-mail and web addresses by format or name, and names with their region code', async () => {
    const schema = object(
      {
        to: { type: 'string' },
        page: { type: 'string', format: 'uri' },
        location: { type: 'string' },
      },
      ['to', 'page', 'location'],
    );
    const intent =
      'Mail ann.lee@example.org the page https://example.org/a?b=1. about Newark, NJ venues.';
    expect((await bind(intent, schema)).data).toEqual({
      to: 'ann.lee@example.org',
      page: 'https://example.org/a?b=1',
      location: 'Newark, NJ',
    });
    const abroad = object({ location: { type: 'string' } }, ['location']);
    expect((await bind('A hotel in Toronto, Canada? One room.', abroad)).data).toEqual({
      location: 'Toronto, Canada',
    });
    expect((await bind('A room in Hotel Paradise, Las Vegas.', abroad)).data).toEqual({
      location: 'Hotel Paradise',
    });
  });

  it('reads booleans as mentioned and not negated, and keeps the planner’s own arguments', async () => {
    const schema = object({ include_tax: { type: 'boolean' }, amount: { type: 'number' } }, [
      'include_tax',
      'amount',
    ]);
    expect((await bind('Total of 12.5 without tax', schema)).data).toEqual({
      include_tax: false,
      amount: 12.5,
    });
    expect((await bind('Total of 12.5 with tax', schema, { amount: 3 })).data).toEqual({
      amount: 3,
      include_tax: true,
    });
  });

  it('leaves out what the intent does not say, so the layer reports a schema error', async () => {
    const schema = object({ count: { type: 'integer' } }, ['count']);
    expect((await bind('Do the thing', schema)).data).toEqual({});
  });
});
