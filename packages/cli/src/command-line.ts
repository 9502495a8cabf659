import { parseArgs } from 'node:util';
import { UsageError } from './errors.js';

/** One option of a command: its parseArgs type plus what `--help` prints. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
  /** The value's name in the help (`<n>`, `<module>`); string options only. */
  readonly value?: string;
  readonly description: string;
}

/** A command's name, synopsis, options and closing notes, from which its help is printed. */
export interface CommandSpec {
  /** `run`, `batch`, `mcp serve`, … */
  readonly name: string;
  /** What follows the name in the usage line: `<file.jsonl> [options]`. */
  readonly usage: string;
  readonly summary: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** Free text printed after the options. */
  readonly notes?: string;
}

type Values = Record<string, string | boolean | string[] | undefined>;

/** The parsed command line: option values by long name, and positionals. */
export interface CommandLine {
  readonly values: Values;
  readonly positionals: readonly string[];
}

/** The help text of a command. */
export function commandHelp(spec: CommandSpec): string {
  const rows = Object.entries(spec.options).map(([name, option]) => {
    const short = option.short === undefined ? '    ' : `-${option.short}, `;
    const value = option.type === 'string' ? ` ${option.value ?? '<value>'}` : '';
    return [`  ${short}--${name}${value}`, option.description] as const;
  });
  rows.push(['  -h, --help', 'show this help']);
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  const lines = rows.map(([left, right]) => `${left.padEnd(width)}${right}`);
  const notes = spec.notes === undefined ? '' : `\n${spec.notes.trimEnd()}\n`;
  return `Usage: switchyard ${spec.name} ${spec.usage}\n\n${spec.summary}\n\nOptions:\n${lines.join('\n')}\n${notes}`;
}

/**
 * Parses `args` against `spec` (strict: an unknown option or a missing value is a usage error).
 * Returns null when `--help` or `-h` is among the arguments (before a `--`).
 *
 * @throws UsageError naming the command, with the parser's message.
 */
export function parseCommandLine(spec: CommandSpec, args: readonly string[]): CommandLine | null {
  const end = args.indexOf('--');
  const head = end === -1 ? args : args.slice(0, end);
  if (head.includes('--help') || head.includes('-h')) return null;
  const options: Record<
    string,
    { type: 'string' | 'boolean'; short?: string; multiple?: boolean }
  > = {};
  for (const [name, option] of Object.entries(spec.options)) {
    options[name] = {
      type: option.type,
      ...(option.short === undefined ? {} : { short: option.short }),
      ...(option.multiple === true ? { multiple: true } : {}),
    };
  }
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options,
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Values, positionals };
  } catch (error) {
    throw new UsageError(`switchyard ${spec.name}: ${(error as Error).message}`);
  }
}

/** A string option's value, or `fallback`. */
export function stringOption(
  line: CommandLine,
  name: string,
  fallback?: string,
): string | undefined {
  const value = line.values[name];
  return typeof value === 'string' ? value : fallback;
}

/** A repeatable string option's values (none: empty). */
export function listOption(line: CommandLine, name: string): readonly string[] {
  const value = line.values[name];
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
}

/** A boolean option's value (absent: false). */
export function flagOption(line: CommandLine, name: string): boolean {
  return line.values[name] === true;
}

/**
 * A numeric option's value: an integer ≥ `min` (default 1), or `fallback` when absent.
 *
 * @throws UsageError naming the option when the value is not such an integer.
 */
export function integerOption(line: CommandLine, name: string, fallback: number, min = 1): number {
  const text = stringOption(line, name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < min) {
    throw new UsageError(`--${name} must be an integer ≥ ${min}; got ${JSON.stringify(text)}`);
  }
  return value;
}

/**
 * A numeric option's value: a finite number ≥ 0, or undefined when absent.
 *
 * @throws UsageError naming the option when the value is not such a number.
 */
export function numberOption(line: CommandLine, name: string): number | undefined {
  const text = stringOption(line, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0) {
    throw new UsageError(`--${name} must be a number ≥ 0; got ${JSON.stringify(text)}`);
  }
  return value;
}
