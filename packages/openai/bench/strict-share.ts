/**
 * The share of real tool schemas that OpenAI's strict mode can take after `toOpenAIStrictSchema`,
 * and why the others cannot be strict: over the 1,891 tools of the tool-search vault
 * (`../shared/data/toolsearch/tools.jsonl`, MetaTool and BFCL), per namespace.
 *
 *   npx tsx --conditions=@switchyard/source packages/openai/bench/strict-share.ts [tools.jsonl]
 */
import { readFileSync } from 'node:fs';
import { toOpenAIStrictSchema } from '../src/strict-schema.js';

const file = process.argv[2] ?? '/work/shared/data/toolsearch/tools.jsonl';
const tools = readFileSync(file, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map(
    (line) =>
      JSON.parse(line) as { name: string; namespace: string; inputSchema: Record<string, unknown> },
  );

/** A reason without its path, so that the same cause counts once per kind. */
function kindOf(reason: string): string {
  return reason.replace(/^(the root|\/\S*)/, '<field>');
}

const byNamespace = new Map<string, { total: number; strict: number }>();
const reasonTools = new Map<string, number>();
let strict = 0;
for (const tool of tools) {
  const counts = byNamespace.get(tool.namespace) ?? { total: 0, strict: 0 };
  counts.total += 1;
  const conversion = toOpenAIStrictSchema(tool.inputSchema);
  if (conversion.strict) {
    counts.strict += 1;
    strict += 1;
  } else {
    for (const kind of new Set(conversion.reasons.map(kindOf))) {
      reasonTools.set(kind, (reasonTools.get(kind) ?? 0) + 1);
    }
  }
  byNamespace.set(tool.namespace, counts);
}

const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)} %`;
console.log(`strict: ${strict} of ${tools.length} tools (${percent(strict, tools.length)})`);
for (const [namespace, counts] of byNamespace) {
  console.log(
    `  ${namespace}: ${counts.strict} of ${counts.total} (${percent(counts.strict, counts.total)})`,
  );
}
console.log('reasons (tools, a tool counted once per kind of reason):');
for (const [kind, count] of [...reasonTools].sort((a, b) => b[1] - a[1])) {
  console.log(`  ${String(count).padStart(5)}  ${kind}`);
}
