import { readFileSync } from 'node:fs';
import { isPlainObject } from 'switchyard/tools';
import { PriceTableError } from './errors.js';

/** Model prices in USD per million tokens. */
export interface TokenPrices {
  readonly inputPerMillion: number;
  readonly outputPerMillion: number;
}

/**
 * What a batch prices its tools with. `model` prices each tool's share of the model's tokens;
 * `perCall` (USD, by tool name) prices the calls of a tool that reported no cost of its own. A
 * call whose tool reported dollars (`runtime.reportCost`) is charged what it reported, never its
 * `perCall` price as well: the report is the better-informed figure.
 */
export interface Prices {
  readonly model?: TokenPrices;
  readonly perCall: Readonly<Record<string, number>>;
}

/** Whether any price is known (the cost columns are shown, rows sorted by cost). */
export function hasPrices(prices: Prices): boolean {
  return prices.model !== undefined || Object.keys(prices.perCall).length > 0;
}

/** What a price file may hold: `{ model?: { inputPerMillion?, outputPerMillion? }, tools?: { <name>: { perCall } } }`. */
interface PriceFile {
  readonly model?: Partial<TokenPrices>;
  readonly tools?: Readonly<Record<string, { readonly perCall: number }>>;
}

function fail(file: string, problem: PriceTableError['problem'], message: string): never {
  throw new PriceTableError(`--prices ${file}: ${message}`, problem);
}

function onlyKeys(file: string, where: string, value: Record<string, unknown>, keys: string[]) {
  const unknown = Object.keys(value).find((key) => !keys.includes(key));
  if (unknown !== undefined) {
    fail(
      file,
      'unknown_key',
      `unknown key ${where}${JSON.stringify(unknown)} (expected ${keys.join(', ')})`,
    );
  }
}

function price(file: string, where: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    fail(file, 'bad_price', `${where} must be a number ≥ 0; got ${JSON.stringify(value)}`);
  }
  return value;
}

function objectAt(file: string, where: string, value: unknown): Record<string, unknown> {
  if (!isPlainObject(value)) fail(file, 'bad_shape', `${where} must be an object`);
  return value;
}

/** Checks a price file's parsed content, key by key. */
function checkPriceFile(file: string, value: unknown): PriceFile {
  const root = objectAt(file, 'the file', value);
  onlyKeys(file, '', root, ['model', 'tools']);
  const model: Partial<Record<keyof TokenPrices, number>> = {};
  if (root.model !== undefined) {
    const entry = objectAt(file, 'model', root.model);
    onlyKeys(file, 'in model: ', entry, ['inputPerMillion', 'outputPerMillion']);
    for (const key of ['inputPerMillion', 'outputPerMillion'] as const) {
      if (entry[key] !== undefined) model[key] = price(file, `model.${key}`, entry[key]);
    }
  }
  const tools: Record<string, { perCall: number }> = {};
  for (const [name, entry] of Object.entries(objectAt(file, 'tools', root.tools ?? {}))) {
    const tool = objectAt(file, `tools.${name}`, entry);
    onlyKeys(file, `in tools.${name}: `, tool, ['perCall']);
    tools[name] = { perCall: price(file, `tools.${name}.perCall`, tool.perCall) };
  }
  return { ...(root.model === undefined ? {} : { model }), tools };
}

/**
 * The prices a batch runs with: the `--prices` file's, with `--price-in` / `--price-out`
 * overriding its model prices (a model price given neither way counts as 0 once the other is
 * given).
 *
 * @param options.file the price file's path (resolved by the caller); none: flags only.
 * @param options.inputPerMillion `--price-in`; options.outputPerMillion `--price-out`.
 * @throws PriceTableError when the file cannot be read, is not JSON, has a value that should be
 *   an object and is not, a key it does not know, or a price that is negative or not a number.
 */
export function loadPrices(options: {
  readonly file?: string;
  readonly inputPerMillion?: number;
  readonly outputPerMillion?: number;
}): Prices {
  let fromFile: PriceFile = {};
  if (options.file !== undefined) {
    let text: string;
    try {
      text = readFileSync(options.file, 'utf8');
    } catch (error) {
      fail(options.file, 'unreadable', `cannot read it: ${(error as Error).message}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      fail(options.file, 'not_json', `not valid JSON: ${(error as Error).message}`);
    }
    fromFile = checkPriceFile(options.file, parsed);
  }
  const input = options.inputPerMillion ?? fromFile.model?.inputPerMillion;
  const output = options.outputPerMillion ?? fromFile.model?.outputPerMillion;
  const perCall = Object.fromEntries(
    Object.entries(fromFile.tools ?? {}).map(([name, tool]) => [name, tool.perCall]),
  );
  if (input === undefined && output === undefined) return { perCall };
  return { model: { inputPerMillion: input ?? 0, outputPerMillion: output ?? 0 }, perCall };
}
