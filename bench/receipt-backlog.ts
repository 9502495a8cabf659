/**
 * Receipt backlog under a sustained burst: 256 callers dispatch as fast as they can for 60 s
 * through `withAuditLog` with a local log, each awaiting its result before its next call. Samples
 * resident memory and the unwritten backlog (calls completed minus lines on disk, estimated from
 * the file's size) every second (sampled by the callers themselves: a burst that never yields to the event loop
 * would starve a timer). Checks that memory stays flat and every call has its line.
 * Not a CI job. Exits non-zero when a check fails.
 *
 * Run: npm run build && npx tsx bench/receipt-backlog.ts   (DURATION_S=60, CALLERS=256)
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createDispatcher,
  createToolRegistry,
  defineTool,
  verifyReceipts,
  withAuditLog,
} from './support/switchyard.js';

const DURATION_MS = Number(process.env.DURATION_S ?? 60) * 1000;
const CALLERS = Number(process.env.CALLERS ?? 256);
const directory = mkdtempSync(join(tmpdir(), 'switchyard-backlog-'));
process.on('exit', () => rmSync(directory, { recursive: true, force: true }));

const echo = defineTool({
  name: 'echo',
  description: 'echo',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  handler: (args: { text?: string }) => args.text ?? '',
});
const audit = withAuditLog({ sink: 'local', directory });
const dispatcher = createDispatcher({ registry: createToolRegistry([echo]), caller: audit });
const path = join(directory, 'burst.jsonl');

let completed = 0;
const deadline = Date.now() + DURATION_MS;
async function caller(id: number): Promise<void> {
  for (let n = 0; Date.now() < deadline; n += 1) {
    await dispatcher.dispatch(
      { id: `${id}-${n}`, name: 'echo', arguments: { text: 'a receipt per call, whatever' } },
      { sessionId: 'burst' },
    );
    completed += 1;
    // Sampled from the callers, not a timer: a burst that never yields would starve a timer.
    if (completed % 1000 === 0 && Date.now() >= nextSample) sample();
  }
}

const samples: { second: number; calls: number; rssMiB: number; behind: number }[] = [];
/** Bytes of one receipt line (all lines of this burst are about the same size). */
let lineBytes = 0;
function firstLineBytes(): number {
  const head = Buffer.alloc(4096);
  const fd = openSync(path, 'r');
  const read = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const end = head.subarray(0, read).indexOf(0x0a);
  return end === -1 ? 0 : end + 1;
}
let nextSample = Date.now() + 1000;
function sample(): void {
  nextSample += 1000;
  const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  if (lineBytes === 0 && size > 0) lineBytes = firstLineBytes();
  samples.push({
    second: samples.length + 1,
    calls: completed,
    rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20),
    behind: lineBytes === 0 ? 0 : Math.max(0, Math.round(completed - size / lineBytes)),
  });
}
await Promise.all(Array.from({ length: CALLERS }, (_, id) => caller(id)));
await audit.close();

const verification = verifyReceipts(path);
console.table(samples.filter((_, index) => index % 5 === 4 || index === samples.length - 1));
const third = Math.max(1, Math.floor(samples.length / 3));
const early = Math.max(...samples.slice(third, 2 * third).map((sample) => sample.rssMiB));
const late = Math.max(...samples.slice(-third).map((sample) => sample.rssMiB));
const flat = late - early < 48;
console.log(
  `${completed} calls, ${verification.verifiedLines} receipt lines (chain ${verification.ok ? 'intact' : 'BROKEN'}); ` +
    `rss middle third max ${early} MiB, last third max ${late} MiB: ${flat ? 'flat' : 'GROWING'}`,
);
process.exitCode = flat && verification.ok && verification.verifiedLines === completed ? 0 : 1;
