import { join } from 'node:path';
import {
  createDispatcher,
  createToolRegistry,
  dispatchTurn,
  type ToolCallResult,
  type ToolSafety,
} from '../../src/index.js';
import {
  createFileJournalStore,
  type JournalStore,
  openRunJournal,
  type RunJournalOptions,
} from '../../src/journal/index.js';
import { recordingTool } from '../../src/testing/index.js';
import { tempDir } from '../support/temp-dir.js';

/** A file store in a fresh directory. */
export function freshStore(): { store: JournalStore; directory: string } {
  const directory = join(tempDir('switchyard-journal-'), 'journal');
  return { store: createFileJournalStore({ directory }), directory };
}

/** A tool that charges (it has a side effect and is not idempotent), and one of each other kind. */
export function ledgerTools(charge: ToolSafety = { sideEffectLevel: 'network', spend: true }) {
  const tools = {
    charge: recordingTool({ name: 'charge', safety: charge }).respondsWith(
      (call) => `charged ${String(call.args.amount)}`,
    ),
    lookup: recordingTool({ name: 'lookup' }).respondsWith(() => 'found'),
    upsert: recordingTool({
      name: 'upsert',
      safety: { sideEffectLevel: 'workspace_write', idempotent: true, destructive: false },
    }),
    pay: recordingTool({
      name: 'pay',
      safety: { sideEffectLevel: 'network', honorsIdempotencyKey: true },
    }).respondsWith((call) => call.runtime.idempotencyKey),
  };
  const registry = createToolRegistry(Object.values(tools).map((tool) => tool.tool));
  return { ...tools, registry, dispatcher: createDispatcher({ registry }) };
}

/** One call of `name` with `args`, as a model proposes it. */
export function proposed(id: string, name: string, args: Record<string, unknown> = {}) {
  return { id, name, arguments: JSON.stringify(args) };
}

/** Runs `calls` as one turn of run `runId` with a journal opened for it, then closes it. */
export async function journaledTurn(
  options: Omit<RunJournalOptions, 'runId'> & {
    readonly runId?: string;
    readonly dispatcher: ReturnType<typeof ledgerTools>['dispatcher'];
    readonly calls: ReturnType<typeof proposed>[];
    readonly iteration?: number;
  },
): Promise<ToolCallResult[]> {
  const journal = await openRunJournal({ ...options, runId: options.runId ?? 'run-1' });
  try {
    return await dispatchTurn(options.calls, {
      dispatcher: options.dispatcher,
      journal,
      turn: { iteration: options.iteration ?? 0 },
    });
  } finally {
    await journal.close();
  }
}
