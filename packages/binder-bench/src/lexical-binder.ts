import type { JsonObject, JsonValue } from 'switchyard';
import type { BinderFn, BinderRequest } from 'switchyard/middleware';
import { isPlainObject } from 'switchyard/tools';
import { type IntentEvidence, intentEvidence } from './intent-evidence.js';

type Schema = Record<string, unknown>;

/** Words of a property name and description that say nothing about which number or name it takes. */
const STOP = new Set([
  'the',
  'a',
  'an',
  'of',
  'to',
  'in',
  'for',
  'and',
  'or',
  'is',
  'be',
  'by',
  'with',
  'value',
  'number',
  'name',
]);
const NAMED =
  /city|location|place|country|state|region|destination|origin|venue|address|name|person|author|artist|team|company|player/i;
const NEGATION = /\b(?:not|no|without|don't|do not|never|exclude|excluding|disable)\b[\w\s]{0,20}$/;

function typeOf(schema: Schema): string | undefined {
  const declared = schema.type;
  if (typeof declared === 'string') return declared;
  if (Array.isArray(declared))
    return declared.find((type) => type !== 'null') as string | undefined;
  return undefined;
}

function keywords(name: string): string[] {
  const spaced = name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.]/g, ' ');
  return spaced
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word.length > 2 && !STOP.has(word));
}

/** Unused evidence of one kind, taken in order. */
class Pool<T> {
  private readonly used = new Set<number>();
  constructor(private readonly items: readonly T[]) {}
  take(prefer: (item: T) => boolean = () => true): T | undefined {
    let index = this.items.findIndex((item, at) => !this.used.has(at) && prefer(item));
    if (index === -1) index = this.items.findIndex((_, at) => !this.used.has(at));
    if (index === -1) return undefined;
    this.used.add(index);
    return this.items[index];
  }
  rest(): T[] {
    const left = this.items.filter((_, at) => !this.used.has(at));
    for (const at of this.items.keys()) this.used.add(at);
    return left;
  }
}

interface Pools {
  readonly evidence: IntentEvidence;
  readonly numbers: Pool<{ value: number; before: string }>;
  readonly quoted: Pool<string>;
  readonly names: Pool<string>;
  readonly dates: Pool<string>;
  readonly emails: Pool<string>;
  readonly urls: Pool<string>;
}

function enumHit(values: readonly unknown[], lower: string): JsonValue | undefined {
  let best: { value: JsonValue; length: number } | undefined;
  for (const value of values) {
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const text = String(value).toLowerCase();
    const at = lower.indexOf(text);
    if (
      text === '' ||
      at === -1 ||
      /\w/.test(lower[at - 1] ?? '') ||
      /\w/.test(lower[at + text.length] ?? '')
    )
      continue;
    if (best === undefined || text.length > best.length) best = { value, length: text.length };
  }
  return best?.value;
}

function stringFor(name: string, schema: Schema, pools: Pools): string | undefined {
  if (schema.format === 'date' || /date|day/i.test(name)) {
    const date = pools.dates.take();
    if (date !== undefined) return date;
  }
  if (schema.format === 'email' || /e-?mail|^to$|recipient/i.test(name)) {
    const email = pools.emails.take();
    if (email !== undefined) return email;
  }
  if (schema.format === 'uri' || /url|uri|link|endpoint/i.test(name)) {
    const url = pools.urls.take();
    if (url !== undefined) return url;
  }
  // Places and names are capitalised in the intent; other strings are more often quoted.
  if (NAMED.test(name)) return pools.names.take() ?? pools.quoted.take();
  return pools.quoted.take() ?? pools.names.take();
}

function valueFor(
  name: string,
  schema: Schema,
  pools: Pools,
  required: boolean,
): JsonValue | undefined {
  if (Array.isArray(schema.enum)) return enumHit(schema.enum, pools.evidence.lower);
  if (!required) return undefined;
  const words = keywords(name);
  const near = (item: { before: string }) =>
    words.some((word) => item.before.slice(-24).includes(word));
  switch (typeOf(schema)) {
    case 'integer':
      return pools.numbers.take((item) => near(item) && Number.isInteger(item.value))?.value;
    case 'number':
      return pools.numbers.take(near)?.value;
    case 'boolean': {
      const at = words
        .map((word) => pools.evidence.lower.indexOf(word))
        .find((index) => index !== -1);
      return at === undefined ? undefined : !NEGATION.test(pools.evidence.lower.slice(0, at));
    }
    case 'string':
      return stringFor(name, schema, pools);
    case 'array': {
      const items = isPlainObject(schema.items) ? typeOf(schema.items) : undefined;
      const found: JsonValue[] =
        items === 'number' || items === 'integer'
          ? pools.numbers.rest().map((item) => item.value)
          : items === 'string'
            ? [...pools.quoted.rest(), ...pools.names.rest()]
            : [];
      return found.length > 0 ? found : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * A binder that needs no model: it fills a tool's arguments from the intent by reading the schema.
 * Required properties take, by type, a number written near a word of the property's name (else the
 * next one), quoted text, a date (`format: date` or a name with "date"/"day"), an e-mail or web
 * address (by format or name), a capitalised name (with a trailing region code: "Newark, NJ"), a
 * boolean mentioned and not negated, or for arrays every number or quoted text left; any property
 * with an `enum` takes the longest enum value the intent mentions. Arguments the planner already
 * gave are kept. A real, fast baseline: what a model-free binder reaches on the data.
 *
 * @example
 * const binderFn = createLexicalBinder();
 * withNaturalLanguageExecutor({ provider: 'switchyard', model: 'lexical', binderFn });
 */
export function createLexicalBinder(): BinderFn {
  return async function lexicalBinder(request: BinderRequest) {
    const evidence = intentEvidence(request.intent);
    const pools: Pools = {
      evidence,
      numbers: new Pool(evidence.numbers),
      quoted: new Pool(evidence.quoted),
      names: new Pool(evidence.names),
      dates: new Pool(evidence.dates),
      emails: new Pool(evidence.emails),
      urls: new Pool(evidence.urls),
    };
    const properties = isPlainObject(request.schema.properties) ? request.schema.properties : {};
    const required = new Set(Array.isArray(request.schema.required) ? request.schema.required : []);
    const args: JsonObject = { ...request.partialArgs };
    // Required properties first, so an optional one never takes the evidence a required one needs.
    const names = Object.keys(properties).sort(
      (a, b) => Number(required.has(b)) - Number(required.has(a)),
    );
    for (const name of names) {
      const schema = properties[name];
      if (Object.hasOwn(args, name) || !isPlainObject(schema)) continue;
      const value = valueFor(name, schema, pools, required.has(name));
      if (value !== undefined) args[name] = value;
    }
    return { data: args };
  };
}
