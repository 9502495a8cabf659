import { JournalDecisionError } from 'switchyard/errors';
import { decideApproval, listPendingApprovals, type PendingApproval } from 'switchyard/journal';
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

/** `switchyard approvals`'s command line. */
export const APPROVALS_SPEC: CommandSpec = {
  name: 'approvals',
  usage: '[list | approve <run> <call-id> | deny <run> <call-id>] [options]',
  summary:
    'The calls of a batch (switchyard batch --approvals) or of any journaled run that wait for a\ndecision: list them, approve or deny one. Run the batch again to go on with the decided tasks:\nan approved call runs once, a denied one gets consent_denied.',
  options: {
    ...JOURNAL_COMMAND_OPTIONS,
    reason: {
      type: 'string',
      value: '<text>',
      description: "why; a denial's reason is what the model reads",
    },
  },
  notes: `Exit codes: 0 done · 1 the decision was refused (no such pending call, already decided, expired)
· 2 usage · 3 unreadable journal. A run that is running cannot be decided on: wait until it parks.`,
};

/**
 * `switchyard approvals [list|approve|deny]`. Resolves to the exit code.
 *
 * @throws UsageError for a bad command line.
 */
export async function approvalsCommand(
  args: string[],
  io: CommandIo = processIo(),
): Promise<number> {
  const line = parseCommandLine(APPROVALS_SPEC, args);
  if (line === null) {
    io.stdout.write(commandHelp(APPROVALS_SPEC));
    return EXIT.ok;
  }
  const [action = 'list', runId, callId, ...extra] = line.positionals;
  const store = requiredJournalStore(line, io.cwd, 'approvals');
  try {
    if (action === 'list') {
      if (runId !== undefined) throw new UsageError('switchyard approvals list takes no arguments');
      const pending = await listPendingApprovals(store);
      for (const approval of pending) io.stdout.write(describe(approval, flagOption(line, 'json')));
      if (!flagOption(line, 'json'))
        io.stderr.write(`${pending.length} call(s) wait for a decision\n`);
      return EXIT.ok;
    }
    if ((action !== 'approve' && action !== 'deny') || callId === undefined || extra.length > 0) {
      throw new UsageError('switchyard approvals takes list, or approve|deny <run> <call-id>');
    }
    const key = stringOption(line, 'key');
    const reason = stringOption(line, 'reason');
    await decideApproval(store, runId as string, {
      callId,
      decision: action === 'approve' ? 'approved' : 'denied',
      decidedBy: stringOption(line, 'by') ?? io.env.USER ?? 'operator',
      ...(key === undefined ? {} : { key }),
      ...(reason === undefined ? {} : { reason }),
    });
    io.stderr.write(`${action === 'approve' ? 'approved' : 'denied'}: ${runId} ${callId}\n`);
    return EXIT.ok;
  } catch (error) {
    if (!JournalDecisionError.isInstance(error)) throw error;
    io.stderr.write(`switchyard approvals: ${error.message}\n`);
    return EXIT.failures;
  } finally {
    await store.close();
  }
}

function describe(approval: PendingApproval, json: boolean): string {
  if (json) return `${JSON.stringify(approval)}\n`;
  const expires = approval.expiresAt === null ? '' : `  expires ${approval.expiresAt}`;
  return `${approval.runId}  ${approval.callId}  ${approval.toolName} ${JSON.stringify(approval.arguments)}  requested ${approval.requestedAt}${expires}\n  key ${approval.key}\n`;
}
