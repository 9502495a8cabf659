import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { McpServerConfig } from '@switchyard/mcp';
import type { CommandLine, OptionSpec } from './command-line.js';
import { listOption, stringOption } from './command-line.js';
import { InputError, UsageError } from './errors.js';

/** `--mcp` and `--mcp-config`, shared by `run`, `agent` and `batch` through `TOOL_OPTIONS`. */
export const MCP_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  mcp: {
    type: 'string',
    multiple: true,
    value: '<name>=<command…>|<url>',
    description:
      'an MCP server whose tools join as <name>__<tool>: a command line (stdio) or an http(s) URL (repeatable)',
  },
  'mcp-config': {
    type: 'string',
    value: '<file.json>',
    description:
      'MCP servers from a JSON file: [{ "name", "transport": "stdio"|"http", "command"|"url", … }]',
  },
};

/**
 * Splits a command line into words the way a POSIX shell would for plain words, '…', "…" and
 * backslash escapes (no expansion of any kind).
 */
function words(text: string, flag: string): string[] {
  const found: string[] = [];
  let word: string | null = null;
  let quote: "'" | '"' | null = null;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (quote !== null) {
      if (char === quote) quote = null;
      else if (char === '\\' && quote === '"' && /["\\$`]/.test(text[index + 1] ?? '')) {
        index += 1;
        word += text[index] as string;
      } else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
    } else if (char === '\\' && index + 1 < text.length) {
      index += 1;
      word = (word ?? '') + (text[index] as string);
    } else if (/\s/.test(char)) {
      if (word !== null) found.push(word);
      word = null;
    } else word = (word ?? '') + char;
  }
  if (quote !== null) throw new UsageError(`${flag}: unclosed ${quote} in ${JSON.stringify(text)}`);
  if (word !== null) found.push(word);
  return found;
}

/** One `--mcp name=command args…` or `--mcp name=https://…` value; a command runs in `cwd`. */
function serverFromFlag(value: string, cwd: string): McpServerConfig {
  const equals = value.indexOf('=');
  const name = value.slice(0, equals).trim();
  const target = value.slice(equals + 1).trim();
  if (equals <= 0 || target === '') {
    throw new UsageError(
      `--mcp takes <name>=<command…> or <name>=<url>, e.g. --mcp "fs=npx mcp-server-filesystem ."; got ${JSON.stringify(value)}`,
    );
  }
  if (/^https?:\/\//i.test(target)) return { name, transport: 'http', url: target };
  const [command = '', ...args] = words(target, `--mcp ${name}`);
  return { name, transport: 'stdio', command, args, cwd };
}

/** A config file entry; `command` may also be an argv array, as in the reference's `mcp_servers`. */
function serverFromFile(entry: unknown, file: string, index: number, cwd: string): McpServerConfig {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    throw new InputError(`--mcp-config ${file}: server ${index} must be an object`);
  }
  const config: Record<string, unknown> = { ...entry };
  if (config.transport === 'stdio') {
    config.cwd = typeof config.cwd === 'string' ? resolve(cwd, config.cwd) : cwd;
  }
  const command = config.command;
  if (Array.isArray(command)) {
    const [program, ...rest] = command;
    const args = Array.isArray(config.args) ? config.args : [];
    return { ...config, command: program, args: [...rest, ...args] } as unknown as McpServerConfig;
  }
  return config as unknown as McpServerConfig;
}

/**
 * The MCP servers the command line names: `--mcp-config` entries, then each `--mcp`. The
 * configurations are checked where they are connected (`InvalidOptionError` naming the entry).
 *
 * @throws UsageError for a malformed `--mcp`; InputError for an unreadable or malformed config file.
 */
export async function mcpServersFrom(
  line: CommandLine,
  cwd: string = process.cwd(),
): Promise<McpServerConfig[]> {
  const servers: McpServerConfig[] = [];
  const file = stringOption(line, 'mcp-config');
  if (file !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(resolve(cwd, file), 'utf8'));
    } catch (error) {
      throw new InputError(`--mcp-config ${file}: ${(error as Error).message}`, { cause: error });
    }
    const list = Array.isArray(parsed)
      ? parsed
      : (parsed as { mcpServers?: unknown } | null)?.mcpServers;
    if (!Array.isArray(list)) {
      throw new InputError(
        `--mcp-config ${file}: expected an array of servers or { "mcpServers": [...] }`,
      );
    }
    servers.push(...list.map((entry, index) => serverFromFile(entry, file, index, cwd)));
  }
  servers.push(...listOption(line, 'mcp').map((value) => serverFromFlag(value, cwd)));
  return servers;
}
