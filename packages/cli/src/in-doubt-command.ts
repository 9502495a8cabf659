import { JournalDecisionError } from 'switchyard/errors';
import { type InDoubtCall, listInDoubtCalls, resolveInDoubtCall } from 'switchyard/journal';
import { type CommandIo, processIo } from './command-io.js';
import {
  type CommandSpec,
  commandHelp,
  flagOption,
  parseCommandLine,
  stringOption,
} from './command-line.js';
import { UsageError } from './errors.js';
import { EXIT } from './exit-codes.js';
import { JOURNAL_COMMAND_OPTIONS, requiredJournalStore } from './journal-store-option.js';

const RESOLUTIONS = { done: 'done', rerun: 'rerun', abandon: 'abandon' } as const;

/** `switchyard in-doubt`'s command line. */
export const IN_DOUBT_SPEC: CommandSpec = {
  name: 'in-doubt',
  usage: '[list | done | rerun | abandon <run> <call-id>] [options]',
  summary:
    'Calls that started before a crash and may or may not have taken effect: they are never run\nagain on their own, and their tasks never count as succeeded. Check each in the system it\nchanged (look it up by its idempotency key), then resolve it: done (it took effect), rerun (it\ndid not: run it again) or abandon (leave it; the model is told). Run the batch again to go on.',
  options: {
    ...JOURNAL_COMMAND_OPTIONS,
    note: {
      type: 'string',
      value: '<text>',
      description: 'what you found; done hands it to the model',
    },
  },
  notes: `Exit codes: 0 done (list: 0 whether or not calls are in doubt) · 1 the call is not in doubt
· 2 usage · 3 unreadable journal. A run that is running cannot be resolved: wait until it stops.`,
};

/**
 * `switchyard in-doubt [list|done|rerun|abandon]`. Resolves to the exit code.
 *
 * @throws UsageError for a bad command line.
 */
export async function inDoubtCommand(args: string[], io: CommandIo = processIo()): Promise<number> {
  const line = parseCommandLine(IN_DOUBT_SPEC, args);
  if (line === null) {
    io.stdout.write(commandHelp(IN_DOUBT_SPEC));
    return EXIT.ok;
  }
  const [action = 'list', runId, callId, ...extra] = line.positionals;
  const store = requiredJournalStore(line, io.cwd, 'in-doubt');
  try {
    if (action === 'list') {
      if (runId !== undefined) throw new UsageError('switchyard in-doubt list takes no arguments');
      const calls = await listInDoubtCalls(store);
      for (const call of calls) io.stdout.write(describe(call, flagOption(line, 'json')));
      if (!flagOption(line, 'json')) io.stderr.write(`${calls.length} call(s) in doubt\n`);
      return EXIT.ok;
    }
    const resolution = Object.hasOwn(RESOLUTIONS, action)
      ? RESOLUTIONS[action as keyof typeof RESOLUTIONS]
      : undefined;
    if (resolution === undefined || callId === undefined || extra.length > 0) {
      throw new UsageError('switchyard in-doubt takes list, or done|rerun|abandon <run> <call-id>');
    }
    const key = stringOption(line, 'key');
    const note = stringOption(line, 'note');
    await resolveInDoubtCall(store, runId as string, {
      callId,
      resolution,
      resolvedBy: stringOption(line, 'by') ?? io.env.USER ?? 'operator',
      ...(key === undefined ? {} : { key }),
      ...(note === undefined ? {} : { note }),
    });
    io.stderr.write(`${resolution}: ${runId} ${callId}\n`);
    return EXIT.ok;
  } catch (error) {
    if (!JournalDecisionError.isInstance(error)) throw error;
    io.stderr.write(`switchyard in-doubt: ${error.message}\n`);
    return EXIT.failures;
  } finally {
    await store.close();
  }
}

function describe(call: InDoubtCall, json: boolean): string {
  if (json) return `${JSON.stringify(call)}\n`;
  const started = call.startedAt === null ? '' : `  started ${call.startedAt}`;
  return `${call.runId}  ${call.callId}  ${call.toolName} ${JSON.stringify(call.arguments)}${started}\n  idempotency key ${call.idempotencyKey}  key ${call.key}\n  ${call.reason}\n`;
}
