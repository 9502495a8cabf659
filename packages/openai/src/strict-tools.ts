import type { ToolCallDelta } from 'switchyard/streams';
import type { ModelToolDefinition } from 'switchyard/tools';
import { type StrictSchemaConversion, toOpenAIStrictSchema } from './strict-schema.js';

/** The strict conversion of each tool of a request, by provider-safe name. */
export type StrictConversions = ReadonlyMap<string, StrictSchemaConversion>;

const NONE: StrictConversions = new Map();

/**
 * The conversion of every definition when strict tools are on; an empty map when they are off
 * (every tool then goes out with `strict: false`).
 */
export function strictConversionsOf(
  definitions: readonly ModelToolDefinition[],
  strict: boolean,
): StrictConversions {
  if (!strict) return NONE;
  return new Map(
    definitions.map((definition) => [
      definition.name,
      toOpenAIStrictSchema(definition.inputSchema),
    ]),
  );
}

// Structured Outputs came with gpt-4o-2024-08-06 and gpt-4o-mini; every later GPT-4.1, GPT-5
// and o-series (o1 and after, not o1-mini/o1-preview) model takes strict function schemas
// (platform.openai.com/docs/guides/structured-outputs, "Supported models").
const STRICT_MODEL =
  /^(?:gpt-4o(?!-2024-05-13)|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o[1-9](?!-mini$|-preview))/;

/** Whether `model` is known to take `strict: true` function tools (`strictTools: 'auto'`). */
export function modelTakesStrictTools(model: string): boolean {
  return STRICT_MODEL.test(model);
}

/**
 * Wraps a translator so that the arguments of strictly-sent calls reach the detector restored:
 * the `null` the model wrote for a left-out optional field becomes an absent field again. Those
 * calls' argument fragments are held until the call ends (or the response finishes), then sent
 * as one fragment; text that is not JSON goes through verbatim, to fail validation as it would.
 * Calls of non-strict tools stream as before.
 */
export function restoringStrictArguments<Event>(
  translate: (event: Event) => Iterable<ToolCallDelta>,
  conversions: StrictConversions,
): (event: Event) => Iterable<ToolCallDelta> {
  if (![...conversions.values()].some((conversion) => conversion.strict)) return translate;
  /** Held fragments of the open strict calls, by delta key. */
  const held = new Map<string, { restore: (value: unknown) => unknown; fragments: string[] }>();

  function release(key: string, deltas: ToolCallDelta[]): void {
    const call = held.get(key);
    if (call === undefined) return;
    held.delete(key);
    const text = call.fragments.join('');
    if (text !== '')
      deltas.push({ type: 'call_arguments', key, fragment: restoredText(text, call.restore) });
  }

  return function translateRestoring(event) {
    const deltas: ToolCallDelta[] = [];
    for (const delta of translate(event)) {
      if (delta.type === 'call_start') {
        const conversion = conversions.get(delta.name);
        if (conversion?.strict === true)
          held.set(delta.key, { restore: conversion.restore, fragments: [] });
      } else if (delta.type === 'call_arguments' && held.has(delta.key)) {
        held.get(delta.key)?.fragments.push(delta.fragment);
        continue;
      } else if (delta.type === 'call_end') {
        const call = held.get(delta.key);
        if (call !== undefined && delta.arguments !== undefined) {
          // The full text the provider sent with the end replaces the fragments.
          held.delete(delta.key);
          deltas.push({ ...delta, arguments: restoredText(delta.arguments, call.restore) });
          continue;
        }
        release(delta.key, deltas);
      } else if (delta.type === 'finish') {
        for (const key of [...held.keys()]) release(key, deltas);
      }
      deltas.push(delta);
    }
    return deltas;
  };
}

function restoredText(text: string, restore: (value: unknown) => unknown): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  const restored = restore(parsed);
  return restored === parsed ? text : JSON.stringify(restored);
}

/**
 * A tool's `parameters` and `strict` flag: the converted schema with `strict: true` when its
 * conversion succeeded, else its own schema with `strict: false`.
 */
export function strictParameters(
  definition: ModelToolDefinition,
  conversions: StrictConversions,
): { readonly parameters: Record<string, unknown>; readonly strict: boolean } {
  const conversion = conversions.get(definition.name);
  return conversion?.strict === true
    ? { parameters: conversion.schema, strict: true }
    : { parameters: definition.inputSchema as Record<string, unknown>, strict: false };
}
