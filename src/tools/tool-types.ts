import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { JsonObject, JsonSchema } from './json.js';

/**
 * The handler arguments a tool's `inputSchema` implies: a Standard Schema's output type (what the
 * handler receives, defaults and transforms applied); for a JSON Schema written `as const`, its
 * type through json-schema-to-ts; for any other JSON Schema (its literals widened), a JSON object.
 */
export type InferToolArgs<Schema> = Schema extends StandardSchemaV1
  ? StandardSchemaV1.InferOutput<Schema>
  : Schema extends { readonly type: 'object' }
    ? Schema extends JSONSchema
      ? FromSchema<Schema>
      : JsonObject
    : JsonObject;

/** The JSON type names a value of type `T` may have (any, for `unknown`). */
export type JsonTypeName<T> = unknown extends T
  ? string
  : T extends string
    ? 'string'
    : T extends number
      ? 'number' | 'integer'
      : T extends boolean
        ? 'boolean'
        : T extends null
          ? 'null'
          : T extends readonly unknown[]
            ? 'array'
            : T extends object
              ? 'object'
              : never;

/**
 * The schemas that agree with handler arguments `Args` declared explicitly: a Standard Schema whose
 * output is `Args`, or a JSON Schema whose top-level property `type`s, where written as literals
 * (inline or `as const`), fit the argument types. A schema typed `JsonSchema` is not checked.
 */
export type SchemaFor<Args> =
  | StandardSchemaV1<unknown, Args>
  | (JsonSchema & {
      readonly properties?: {
        readonly [Key in keyof Args]?: JsonSchema & {
          readonly type?: JsonTypeName<Args[Key]> | readonly string[];
        };
      };
    });
