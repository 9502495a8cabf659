/**
 * Every `switchyard` subcommand: its words, a one-line summary for the top-level help, and a lazy
 * import of the module that runs it, so that a command loads only what it uses.
 *
 * To add a command: write `src/cli/<name>-command.ts` exporting a function that takes the
 * arguments after the command's words and resolves to an exit code (see `exit-codes.ts`; handle
 * `--help` there, e.g. with `parseCommandLine`), then add one entry below. See `README.md` here.
 */

/** A command's entry point: the arguments after its words in, an exit code out. */
export type CommandRunner = (args: string[]) => Promise<number>;

/** One row of the table. */
export interface CommandEntry {
  /** The words that name it, e.g. `['mcp', 'serve']`. */
  readonly words: readonly string[];
  /** What the top-level help prints after the words. */
  readonly summary: string;
  readonly load: () => Promise<CommandRunner>;
}

/** The commands, in the order the top-level help lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    words: ['run'],
    summary: 'dispatch every planner turn of a JSONL file of tool calls',
    load: async () => (await import('./run-command.js')).runCommand,
  },
  {
    words: ['batch'],
    summary: 'run an agent on every task of a JSONL file, resumable',
    load: async () => (await import('./batch-command.js')).batchCommand,
  },
  {
    words: ['approvals'],
    summary: 'list the calls of journaled runs that wait for a decision; approve or deny one',
    load: async () => (await import('./approvals-command.js')).approvalsCommand,
  },
  {
    words: ['in-doubt'],
    summary: 'list the calls that may or may not have taken effect; resolve one',
    load: async () => (await import('./in-doubt-command.js')).inDoubtCommand,
  },
  {
    words: ['agent'],
    summary: 'run an agent on one task',
    load: async () => (await import('./agent-command.js')).agentCommand,
  },
  {
    words: ['bench', 'binder'],
    summary: 'accuracy of tool-argument binders against latency budgets',
    load: async () => (await import('./bench-binder-command.js')).runBenchBinderCommand,
  },
  {
    words: ['mcp', 'serve'],
    summary: 'serve a tools module over MCP (stdio or Streamable HTTP), through its middleware',
    load: async () => (await import('./mcp-serve-command.js')).runMcpServeCommand,
  },
  {
    words: ['worker'],
    summary: 'run the tools of a module for queue dispatchers (BullMQ on Redis)',
    load: async () => (await import('./worker-command.js')).workerCommand,
  },
  {
    words: ['verify'],
    summary: 'check the hash chain of a receipt log',
    load: async () => (await import('./verify-command.js')).verifyCommand,
  },
];

/** The entry whose words start `argv` (the longest such), and the arguments after them. */
export function findCommand(
  argv: readonly string[],
  table: readonly CommandEntry[] = COMMANDS,
): { entry: CommandEntry; args: string[] } | undefined {
  let best: CommandEntry | undefined;
  for (const entry of table) {
    const matches = entry.words.every((word, index) => argv[index] === word);
    if (matches && entry.words.length > (best?.words.length ?? 0)) best = entry;
  }
  return best === undefined ? undefined : { entry: best, args: argv.slice(best.words.length) };
}
