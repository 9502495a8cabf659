import { readFileSync } from 'node:fs';
import { InvalidOptionError, type JsonObject, type JsonSchema, type JsonValue } from 'switchyard';
import { isPlainObject } from 'switchyard/tools';

/** A tool offered in a case: a provider-safe name, a description and a JSON Schema. */
export interface BenchTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

/**
 * One expected call: the tool and, per argument, the list of acceptable values (BFCL's
 * `possible_answer`: `""` in a list marks the argument optional; an object in a list is a pattern
 * whose keys map to lists again).
 */
export interface ExpectedCall {
  readonly name: string;
  readonly arguments: { readonly [argument: string]: readonly JsonValue[] };
}

/** A benchmark case, in the format of the converted BFCL data (`{ id, intent, tools, expected }`). */
export interface BenchCase {
  readonly id: string;
  readonly category?: string;
  readonly intent: string;
  readonly tools: readonly BenchTool[];
  readonly expected: readonly ExpectedCall[];
}

/** A case left out of the benchmark, and why. */
export interface ExcludedCase {
  readonly id: string;
  readonly reason: string;
}

/** The cases of a data file that the benchmark can bind, and those it left out. */
export interface BenchCaseSet {
  readonly source: string;
  readonly cases: readonly BenchCase[];
  readonly excluded: readonly ExcludedCase[];
}

function shapeError(line: number, source: string, message: string): never {
  throw new InvalidOptionError('data', `bench binder: ${source} line ${line}: ${message}`);
}

function toolOf(value: unknown): BenchTool | null {
  if (!isPlainObject(value) || typeof value.name !== 'string') return null;
  if (!isPlainObject(value.inputSchema)) return null;
  const description = typeof value.description === 'string' ? value.description : '';
  return { name: value.name, description, inputSchema: value.inputSchema };
}

function expectedOf(value: unknown): ExpectedCall | null {
  if (!isPlainObject(value) || typeof value.name !== 'string') return null;
  const args = value.arguments;
  if (!isPlainObject(args)) return null;
  for (const acceptable of Object.values(args)) if (!Array.isArray(acceptable)) return null;
  return { name: value.name, arguments: args as JsonObject as ExpectedCall['arguments'] };
}

/**
 * Reads cases from JSON Lines text (one case per line, blank lines ignored). A case the benchmark
 * cannot bind is listed in `excluded`: several expected calls (one intent cannot say which call is
 * which), or an expected tool missing from `tools`. Throws `InvalidOptionError` (option `data`) on
 * a line that is not JSON or not a case, naming the line.
 */
export function parseBenchCases(text: string, source = 'data'): BenchCaseSet {
  const cases: BenchCase[] = [];
  const excluded: ExcludedCase[] = [];
  const lines = text.split('\n');
  for (const [index, raw] of lines.entries()) {
    if (raw.trim() === '') continue;
    let row: unknown;
    try {
      row = JSON.parse(raw);
    } catch {
      shapeError(index + 1, source, 'not valid JSON');
    }
    if (!isPlainObject(row) || typeof row.id !== 'string' || typeof row.intent !== 'string') {
      shapeError(index + 1, source, 'a case needs a string id and a string intent');
    }
    const tools = Array.isArray(row.tools) ? row.tools.map(toolOf) : [null];
    const expected = Array.isArray(row.expected) ? row.expected.map(expectedOf) : [null];
    if (tools.includes(null) || expected.includes(null)) {
      shapeError(index + 1, source, `case ${row.id}: tools[] or expected[] is malformed`);
    }
    const found = { tools: tools as BenchTool[], expected: expected as ExpectedCall[] };
    if (found.expected.length !== 1) {
      excluded.push({ id: row.id, reason: `${found.expected.length} expected calls (needs 1)` });
      continue;
    }
    const [call] = found.expected as [ExpectedCall];
    if (!found.tools.some((tool) => tool.name === call.name)) {
      excluded.push({ id: row.id, reason: `expected tool ${call.name} is not among its tools` });
      continue;
    }
    cases.push({
      id: row.id,
      ...(typeof row.category === 'string' ? { category: row.category } : {}),
      intent: row.intent,
      ...found,
    });
  }
  return { source, cases, excluded };
}

/** Reads a JSON Lines file of cases (see `parseBenchCases`). Throws `InvalidOptionError` if unreadable. */
export function readBenchCases(path: string): BenchCaseSet {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new InvalidOptionError('data', `bench binder: cannot read ${path}: ${String(error)}`);
  }
  return parseBenchCases(text, path);
}

/** The tool a case's single expected call names. */
export function expectedToolOf(benchCase: BenchCase): BenchTool {
  const call = benchCase.expected[0]!;
  return benchCase.tools.find((tool) => tool.name === call.name)!;
}
