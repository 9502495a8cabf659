/**
 * The labelled tool-search data set (`../shared/data/toolsearch`, beside the checkout) and the
 * retrieval metrics computed over it. The data stays outside the repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface VaultTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly namespace: string;
}

export interface LabelledQuery {
  readonly id: string;
  readonly query: string;
  readonly relevant: readonly string[];
  readonly namespace: string;
}

/**
 * The data folder: `TOOLSEARCH_DATA`, else `shared/data/toolsearch` in the nearest folder above the
 * checkout that has one (`../shared` beside a clone; further up for a worktree).
 */
export function dataDir(): string {
  if (process.env.TOOLSEARCH_DATA !== undefined) return process.env.TOOLSEARCH_DATA;
  let dir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  for (let parent = dirname(dir); parent !== dir; dir = parent, parent = dirname(dir)) {
    const candidate = resolve(parent, 'shared/data/toolsearch');
    if (existsSync(candidate)) return candidate;
  }
  return resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/data/toolsearch');
}

function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** Loads the vault and the dev queries; throws a clear message when the folder is missing. */
export function loadToolSearchData(): { tools: VaultTool[]; queries: LabelledQuery[] } {
  const dir = dataDir();
  if (!existsSync(resolve(dir, 'tools.jsonl'))) {
    throw new Error(`tool-search data not found in ${dir} (set TOOLSEARCH_DATA)`);
  }
  return {
    tools: readJsonl<VaultTool>(resolve(dir, 'tools.jsonl')),
    queries: readJsonl<LabelledQuery>(resolve(dir, 'queries-dev.jsonl')),
  };
}

/** Recall@1/5/10 and MRR (first relevant hit) averaged over queries. */
export interface RetrievalScores {
  readonly queries: number;
  readonly r1: number;
  readonly r5: number;
  readonly r10: number;
  readonly mrr: number;
}

/** Scores ranked name lists against their queries' labels (Recall@k = |relevant ∩ top-k| / |relevant|). */
export function scoreRankings(
  queries: readonly LabelledQuery[],
  rankings: readonly (readonly string[])[],
): RetrievalScores {
  let r1 = 0;
  let r5 = 0;
  let r10 = 0;
  let mrr = 0;
  queries.forEach((query, i) => {
    const ranked = rankings[i] ?? [];
    const relevant = new Set(query.relevant);
    const hitsAt = (k: number) => ranked.slice(0, k).filter((name) => relevant.has(name)).length;
    r1 += hitsAt(1) / relevant.size;
    r5 += hitsAt(5) / relevant.size;
    r10 += hitsAt(10) / relevant.size;
    const first = ranked.findIndex((name) => relevant.has(name));
    mrr += first < 0 ? 0 : 1 / (first + 1);
  });
  const n = queries.length || 1;
  return { queries: queries.length, r1: r1 / n, r5: r5 / n, r10: r10 / n, mrr: mrr / n };
}
