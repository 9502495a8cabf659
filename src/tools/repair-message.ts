import type { ErrorObject } from 'ajv';
import { hasOwn, isPlainObject } from './json.js';

/** One reason the arguments failed their schema, in terms a model can act on. */
export interface SchemaIssue {
  /** Where in the arguments: `city`, `items[2].name`, or `(arguments)` for the object itself. */
  readonly path: string;
  /** The JSON Schema keyword that failed (`required`, `type`, `enum`, …). */
  readonly keyword: string;
  readonly message: string;
  /** The expected JSON type(s), when the schema says. */
  readonly expected?: string;
  /** The allowed values, when the schema lists them. */
  readonly allowed?: readonly unknown[];
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const MAX_ISSUES = 20;
const MAX_SHOWN = 60;

function appendKey(path: string, key: string): string {
  const segment = /^\d+$/.test(key)
    ? `[${key}]`
    : IDENTIFIER.test(key)
      ? `.${key}`
      : `[${JSON.stringify(key)}]`;
  return path === '' ? segment.replace(/^\./, '') : `${path}${segment}`;
}

/** `/items/0/name` → `items[0].name` (JSON Pointer unescaped). */
export function pointerToPath(pointer: string, extraKey?: string): string {
  let path = '';
  if (pointer !== '') {
    for (const raw of pointer.slice(1).split('/')) {
      path = appendKey(path, raw.replace(/~1/g, '/').replace(/~0/g, '~'));
    }
  }
  if (extraKey !== undefined) path = appendKey(path, extraKey);
  return path === '' ? '(arguments)' : path;
}

function show(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    // Too deep (or cyclic) to print: name its shape instead, without walking it again.
    text = `(${describeType(value)} too deeply nested to show)`;
  }
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}

function typeOf(schema: unknown): string | undefined {
  if (!isPlainObject(schema)) return undefined;
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.join(' or ');
  return undefined;
}

function enumOf(schema: unknown): readonly unknown[] | undefined {
  if (!isPlainObject(schema)) return undefined;
  if (Array.isArray(schema.enum)) return schema.enum;
  if (hasOwn(schema, 'const')) return [schema.const];
  return undefined;
}

function propertySchema(parent: unknown, key: string): unknown {
  if (!isPlainObject(parent) || !isPlainObject(parent.properties)) return undefined;
  return hasOwn(parent.properties, key) ? parent.properties[key] : undefined;
}

function toIssue(error: ErrorObject): SchemaIssue {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const key = String(params.missingProperty);
      const target = propertySchema(error.parentSchema, key);
      const expected = typeOf(target);
      const allowed = enumOf(target);
      return {
        path: pointerToPath(error.instancePath, key),
        keyword: 'required',
        message: `missing required property${expected ? ` (expected ${expected})` : ''}${
          allowed ? `; allowed values: ${allowed.map(show).join(', ')}` : ''
        }`,
        ...(expected ? { expected } : {}),
        ...(allowed ? { allowed } : {}),
      };
    }
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const properties = isPlainObject(error.parentSchema?.properties)
        ? Object.keys(error.parentSchema.properties)
        : [];
      return {
        path: pointerToPath(error.instancePath, key),
        keyword: 'additionalProperties',
        message: `unexpected property; allowed properties here: ${
          properties.length > 0 ? properties.join(', ') : '(none)'
        }`,
        allowed: properties,
      };
    }
    case 'type': {
      const expected = String(params.type);
      return {
        path: pointerToPath(error.instancePath),
        keyword: 'type',
        message: `must be ${expected}; got ${describeType(error.data)} ${show(error.data)}`,
        expected,
      };
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]) ?? [];
      return {
        path: pointerToPath(error.instancePath),
        keyword: 'enum',
        message: `must be one of ${allowed.map(show).join(', ')}; got ${show(error.data)}`,
        allowed,
      };
    }
    case 'const':
      return {
        path: pointerToPath(error.instancePath),
        keyword: 'const',
        message: `must be exactly ${show(params.allowedValue)}; got ${show(error.data)}`,
        allowed: [params.allowedValue],
      };
    case 'format':
      return {
        path: pointerToPath(error.instancePath),
        keyword: 'format',
        message: `must be a string in format "${String(params.format)}"; got ${show(error.data)}`,
      };
    default:
      return {
        path: pointerToPath(error.instancePath),
        keyword: error.keyword,
        message: `${error.message ?? `fails "${error.keyword}"`}`,
      };
  }
}

/** Turns ajv errors into issues, dropping duplicates. */
export function schemaIssues(errors: readonly ErrorObject[]): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const issue = toIssue(error);
    const key = `${issue.path}\0${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

/**
 * The message a model reads when its arguments fail: each offending key with what was expected
 * and the allowed values, then what to do next.
 */
export function repairMessage(toolName: string, issues: readonly SchemaIssue[]): string {
  const lines = issues.slice(0, MAX_ISSUES).map((issue) => `- ${issue.path}: ${issue.message}`);
  if (issues.length > MAX_ISSUES) lines.push(`- … and ${issues.length - MAX_ISSUES} more`);
  return `Invalid arguments for tool "${toolName}":\n${lines.join('\n')}\nCall ${toolName} again with arguments that satisfy its input schema.`;
}
