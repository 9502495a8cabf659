// A --stack module: a tool caller (call, next) => result, an array of them (outermost first), or
// a function of no arguments returning either. This one logs each call on stderr.
// Run: node dist/cli/main.js run examples/batch.jsonl --stack examples/batch-stack.mjs --allow-failures
export default async function logCalls(call, next) {
  const result = await next(call);
  process.stderr.write(`${call.toolName} → ${result.status}\n`);
  return result;
}
