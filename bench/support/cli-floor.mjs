// The floor of `cli-throughput.bench.ts`: reads a batch file line by line, parses each line and
// writes, per call, the same JSON result line `switchyard run --json` writes (buffered the same
// way) — everything the CLI must do except dispatching.
// Run: node bench/support/cli-floor.mjs <file.jsonl>
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

const lines = createInterface({ input: createReadStream(process.argv[2], { encoding: 'utf8' }) });
let pending = [];
let size = 0;
let number = 0;
let calls = 0;
for await (const text of lines) {
  number += 1;
  const turn = JSON.parse(text);
  turn.forEach((call, emitOrder) => {
    const line = `${JSON.stringify({
      line: number,
      emitOrder,
      toolCallId: call.id,
      toolName: call.name,
      ok: true,
      status: 'ok',
      errorCategory: null,
      result: call.arguments.a + call.arguments.b,
      error: null,
      executor: 'inline',
      executionDurationMs: 0,
    })}\n`;
    pending.push(line);
    size += line.length;
    calls += 1;
    if (size >= 65536) {
      process.stdout.write(pending.join(''));
      pending = [];
      size = 0;
    }
  });
}
process.stdout.write(`${pending.join('')}${JSON.stringify({ summary: { calls } })}\n`);
