import { createDispatcher, dispatchTurn } from 'switchyard';
import { DEFAULT_MAX_CONCURRENT_TOOLS } from 'switchyard/streams';
import { type CommandIo, processIo } from './command-io.js';
import {
  type CommandSpec,
  commandHelp,
  flagOption,
  integerOption,
  parseCommandLine,
  stringOption,
} from './command-line.js';
import { UsageError } from './errors.js';
import { EXIT } from './exit-codes.js';
import { composeLayers } from './load-stack.js';
import { runTurns, type TurnRunner } from './run-turns.js';
import { setUpTools, TOOL_OPTIONS } from './tool-setup.js';

/** `switchyard run`'s command line. */
export const RUN_SPEC: CommandSpec = {
  name: 'run',
  usage: '<file.jsonl | -> [options]',
  summary:
    'Dispatch every planner turn of a JSONL file (- reads standard input): results on stdout in\nplanner order, diagnostics on stderr, a summary at the end.',
  options: {
    json: { type: 'boolean', description: 'one JSON object per result, then a summary object' },
    concurrency: {
      type: 'string',
      value: '<n>',
      description: `tool calls in flight per turn (default ${DEFAULT_MAX_CONCURRENT_TOOLS})`,
    },
    'parallel-turns': {
      type: 'string',
      value: '<n>',
      description: 'turns dispatched at once; output stays in file order (default 1)',
    },
    session: {
      type: 'string',
      value: '<id>',
      description: 'session id stamped on every call and naming its receipt log (default batch)',
    },
    'allow-failures': { type: 'boolean', description: 'exit 0 even when some calls failed' },
    'no-progress': { type: 'boolean', description: 'no progress line on the terminal' },
    ...TOOL_OPTIONS,
  },
  notes: `Each line is one planner turn: an array of calls, {"calls": [...]}, an OpenAI Chat assistant
message ({"tool_calls": [...]}), an OpenAI Responses output ({"output": [...]}) or an Anthropic
message ({"content": [...tool_use blocks]}).

Exit codes: 0 every call ok · 1 some calls failed (0 with --allow-failures) · 2 usage ·
3 the file or some of its lines could not be read.`,
};

/**
 * `switchyard run <file.jsonl>`: dispatches a batch file's turns with the user's tools and
 * middleware. Resolves to the exit code.
 *
 * @throws UsageError for a bad command line; InputError for an unreadable file or module.
 */
export async function runCommand(args: string[], io: CommandIo = processIo()): Promise<number> {
  const line = parseCommandLine(RUN_SPEC, args);
  if (line === null) {
    io.stdout.write(commandHelp(RUN_SPEC));
    return EXIT.ok;
  }
  const [file, ...extra] = line.positionals;
  if (file === undefined)
    throw new UsageError('switchyard run needs a batch file (or - for stdin)');
  if (extra.length > 0)
    throw new UsageError(`switchyard run takes one file; got ${extra.join(' ')}`);
  const maxConcurrentTools = integerOption(line, 'concurrency', DEFAULT_MAX_CONCURRENT_TOOLS);
  const parallelTurns = integerOption(line, 'parallel-turns', 1);
  const tools = await setUpTools(line, io.cwd);
  try {
    const dispatcher = createDispatcher({
      registry: tools.registry,
      caller: composeLayers(tools.layers),
      executors: tools.executors,
    });
    const runTurn: TurnRunner = (calls, turn) =>
      dispatchTurn(calls, { dispatcher, maxConcurrentTools, turn });
    const summary = await runTurns({
      file,
      stdin: io.stdin,
      dispatcher,
      runTurn,
      json: flagOption(line, 'json'),
      progress: !flagOption(line, 'no-progress'),
      parallelTurns,
      sessionId: stringOption(line, 'session', 'batch') ?? 'batch',
      out: io.stdout,
      err: io.stderr,
    });
    if (summary.badLines > 0) return EXIT.input;
    if (summary.failed > 0 && !flagOption(line, 'allow-failures')) return EXIT.failures;
    return EXIT.ok;
  } finally {
    await tools.close();
  }
}
