import { DEFAULT_INTERRUPT_GRACE_MS } from 'switchyard/streams';
import { MODEL_OPTIONS } from './choose-model.js';
import type { CommandSpec } from './command-line.js';
import { TOOL_OPTIONS } from './tool-setup.js';

/** `switchyard batch`'s command line. */
export const BATCH_SPEC: CommandSpec = {
  name: 'batch',
  usage: '<tasks.jsonl | -> [options]',
  summary:
    'Run an agent on every task of a JSONL file ({ id, task, system?, history?, metadata? } a line),\nseveral at once, one result line per task. Run it again with the same --out to resume: finished\ntasks are skipped, and a cut-off task goes on without re-running the tool calls it completed;\na call that may or may not have taken effect is never run again (switchyard in-doubt), and a\ntask waiting for approvals (--approvals) goes on once they are decided (switchyard approvals).',
  options: {
    out: {
      type: 'string',
      short: 'o',
      value: '<file>',
      description: 'append result lines here (needed to resume); default stdout',
    },
    journal: {
      type: 'string',
      value: '<dir | redis-url>',
      description: "each task's run journal: a directory, or Redis (default <out>.journal)",
    },
    approvals: {
      type: 'boolean',
      description:
        'calls of tools that ask for confirmation or are destructive wait for a decision\n(switchyard approvals); the task parks, the rest of the batch goes on',
    },
    'approval-ttl': {
      type: 'string',
      value: '<ms>',
      description: 'a pending approval lapses into a denial after this long (default never)',
    },
    grace: {
      type: 'string',
      value: '<ms>',
      description: `after the first Ctrl-C, how long running calls may finish (default ${DEFAULT_INTERRUPT_GRACE_MS})`,
    },
    sessions: { type: 'string', value: '<n>', description: 'agent runs at once (default 4)' },
    'max-tool-calls': {
      type: 'string',
      value: '<n>',
      description: 'tool calls in flight across all sessions (default 16)',
    },
    rpm: { type: 'string', value: '<n>', description: 'model requests per minute, at most' },
    tpm: { type: 'string', value: '<n>', description: 'model tokens per minute, at most' },
    'price-in': {
      type: 'string',
      value: '<usd>',
      description: 'USD per million input tokens (the summary shows the cost; overrides --prices)',
    },
    'price-out': {
      type: 'string',
      value: '<usd>',
      description: 'USD per million output tokens (overrides --prices)',
    },
    prices: {
      type: 'string',
      value: '<file.json>',
      description:
        'a price table: {"model":{"inputPerMillion","outputPerMillion"},"tools":{"<name>":{"perCall"}}};\nperCall prices the calls of a tool that reported no cost of its own',
    },
    'model-module': {
      type: 'string',
      value: '<module>',
      description:
        'your model: a module exporting a ModelClient, or a function (task) => ModelClient',
    },
    ...MODEL_OPTIONS,
    json: { type: 'boolean', description: 'print the summary as one JSON object on stdout' },
    'allow-failures': { type: 'boolean', description: 'exit 0 even when some tasks failed' },
    quiet: { type: 'boolean', short: 'q', description: 'no progress on stderr' },
    queue: {
      type: 'string',
      value: '<redis-url>',
      description: 'send the tasks to `batch --worker` processes through Redis (docs/queue.md)',
    },
    worker: {
      type: 'boolean',
      description:
        'with --queue: run queued tasks (no file) until SIGINT/SIGTERM; --journal on shared storage',
    },
    'lock-ms': {
      type: 'string',
      value: '<ms>',
      description:
        "--worker: a task's lock; a dead worker's task is re-run after about this (default 30000)",
    },
    'stalled-ms': {
      type: 'string',
      value: '<ms>',
      description: "--worker: how often dead workers' tasks are looked for (default 30000)",
    },
    ...TOOL_OPTIONS,
  },
  notes: `Result line: {"id","status","text","turns","toolCalls","failedToolCalls","usage",
"toolUsage","latencyMs","error","resumed","metadata","toolCost"}. "toolUsage" prices each tool
(toolUsd, modelUsd, totalUsd), "toolCost" sums them for the task. Receipts (--audit) are written one log per task id.

Result lines of tasks that wait add "pendingApprovals" or "inDoubt"; the last line of an id is its
latest. Ctrl-C once: no new task or call starts, running calls finish (--grace); twice: stop now.

Exit codes: 0 every task succeeded · 1 some failed (0 with --allow-failures) · 2 usage ·
3 unreadable file or lines · 4 some task has a call in doubt (switchyard in-doubt) · 5 some task
awaits approval (switchyard approvals) · 130 interrupted (run again to resume).`,
};
