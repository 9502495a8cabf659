/**
 * The ranking ideas tried on top of the vault's bm25, each scored with held-out queries, and the
 * audit behind "why not 0.70" in docs/tool-vault.md. Same data as `tool-search.bench.ts`
 * (1,891 tools, 3,000 dev queries; combined vault, every query ranks every tool).
 *
 * Protocol. Each idea is a family of settings, and every family includes "off" (plain vault bm25).
 * Queries fall into 5 folds by the SHA-256 of their id. For each fold, the setting with the best
 * Recall@5 on the other 4 folds is chosen and scored on this fold: the "held-out" figure pools
 * those scores over all 3,000 queries, so no query is scored by a setting chosen on it. "Tuned on"
 * is the best setting's figure on all queries (in-sample, optimistic). Halves A/B (the first byte
 * of the SHA-256, as in the bench's decay sweep) are also shown: chosen on A, scored on B.
 * Every hit list goes through the same namespace spread (0.8) as the shipped bm25.
 *
 * Run: npm run build && npx tsx bench/tool-search-experiments.ts   (about a minute)
 */
import { createHash } from 'node:crypto';
import type { ToolSearchHit } from '@switchyard/vault';
import { createToolSearch, DEFAULT_NAMESPACE_DECAY } from '@switchyard/vault';
import { spreadNamespaces } from '../src/spread-namespaces.js';
import { experimentRankers, type Ranker } from './support/experiment-rankers.js';
import { type LabelledQuery, loadToolSearchData } from './support/tool-search-data.js';

const { tools, queries } = loadToolSearchData();
const { index, plain, bm25, fuse, cooccurrence, charGrams, sentenceFusion, proximity } =
  experimentRankers(tools);

type Setting = { readonly label: string; readonly ranker: Ranker };
const off: Setting = { label: 'off', ranker: plain };
const grid = <T>(values: readonly T[], make: (value: T) => Setting): Setting[] => [
  off,
  ...values.map(make),
];

const FAMILIES: readonly { name: string; settings: Setting[] }[] = [
  {
    name: 'query term frequency (k3)',
    settings: grid([0.5, 1, 3], (k3) => ({
      label: `k3 ${k3}`,
      ranker: bm25((_t, c, idf) => (idf * (k3 + 1) * c) / (k3 + c)),
    })),
  },
  {
    name: 'query term weight idf^p',
    settings: grid([1.25, 1.5, 2], (p) => ({
      label: `p ${p}`,
      ranker: bm25((_t, _c, idf) => idf ** p),
    })),
  },
  {
    name: 'co-occurrence expansion',
    settings: grid(
      [5, 10, 20].flatMap((m) => [0.1, 0.2, 0.4].map((beta) => [m, beta] as const)),
      ([m, beta]) => ({ label: `${m} terms, β ${beta}`, ranker: cooccurrence(m, beta) }),
    ),
  },
  {
    name: 'character n-grams (RRF)',
    settings: grid(
      [3, 4, 5].flatMap((n) => [0.3, 0.6, 1].map((w) => [n, w] as const)),
      ([n, w]) => ({
        label: `n ${n}, w ${w}`,
        ranker: fuse([
          { ranker: plain, weight: 1 },
          { ranker: charGrams(n), weight: w },
        ]),
      }),
    ),
  },
  {
    name: 'sentence fusion (RRF)',
    settings: grid([0.5, 1, 2], (w) => ({ label: `w ${w}`, ranker: sentenceFusion(w) })),
  },
  {
    name: 'adjacent-pair bonus',
    settings: grid([0.1, 0.3, 0.6], (beta) => ({ label: `β ${beta}`, ranker: proximity(beta) })),
  },
];

const fold = (query: LabelledQuery) =>
  (createHash('sha256').update(query.id).digest()[0] as number) % 5;
const halfOf = (query: LabelledQuery) =>
  (createHash('sha256').update(query.id).digest()[0] as number) % 2;

/** Recall@5 of each query under one setting: over the combined vault, and over its own namespace. */
function recalls(ranker: Ranker): { r5: Float64Array; own: Float64Array } {
  const r5 = new Float64Array(queries.length);
  const own = new Float64Array(queries.length);
  queries.forEach((query, i) => {
    const hits = ranker(query.query);
    const relevant = new Set(query.relevant);
    const found = (top: readonly ToolSearchHit[]) =>
      top.filter((hit) => relevant.has(hit.name)).length / relevant.size;
    r5[i] = found(spreadNamespaces(hits, index.namespaceOf, DEFAULT_NAMESPACE_DECAY, 5));
    own[i] = found(
      hits.filter((hit) => index.namespaceOf(hit.name) === query.namespace).slice(0, 5),
    );
  });
  return { r5, own };
}

const mean = (values: Float64Array, keep: (i: number) => boolean) => {
  let sum = 0;
  let count = 0;
  values.forEach((value, i) => {
    if (keep(i)) {
      sum += value;
      count += 1;
    }
  });
  return sum / (count || 1);
};
const f3 = (value: number) => value.toFixed(3);
const ns = (name: string) => (i: number) => queries[i]?.namespace === name;

const rows = [];
for (const family of FAMILIES) {
  const scored = family.settings.map((setting) => ({ setting, ...recalls(setting.ranker) }));
  const best = (keep: (i: number) => boolean) =>
    scored.reduce((x, y) => (mean(y.r5, keep) > mean(x.r5, keep) ? y : x));
  const heldOut = new Float64Array(queries.length);
  const heldOutOwn = new Float64Array(queries.length);
  const chosen: string[] = [];
  for (let k = 0; k < 5; k += 1) {
    const pick = best((i) => fold(queries[i] as LabelledQuery) !== k);
    chosen.push(pick.setting.label);
    queries.forEach((query, i) => {
      if (fold(query) !== k) return;
      heldOut[i] = pick.r5[i] as number;
      heldOutOwn[i] = pick.own[i] as number;
    });
  }
  const inSample = best(() => true);
  const bestOn = scored
    .slice(1)
    .reduce((x, y) => (mean(y.r5, () => true) > mean(x.r5, () => true) ? y : x));
  const onA = best((i) => halfOf(queries[i] as LabelledQuery) === 0);
  rows.push({
    idea: family.name,
    'best (all queries)': inSample.setting.label,
    'R@5 tuned on': f3(mean(inSample.r5, () => true)),
    'best other than off': `${bestOn.setting.label}: ${f3(mean(bestOn.r5, () => true))}`,
    'R@5 held out (5-fold)': f3(mean(heldOut, () => true)),
    'held out metatool': f3(mean(heldOut, ns('metatool'))),
    'held out bfcl': f3(mean(heldOut, ns('bfcl'))),
    'held out, own namespace: metatool / bfcl': `${f3(mean(heldOutOwn, ns('metatool')))} / ${f3(mean(heldOutOwn, ns('bfcl')))}`,
    'chosen on A': onA.setting.label,
    'A / B': `${f3(mean(onA.r5, (i) => halfOf(queries[i] as LabelledQuery) === 0))} / ${f3(mean(onA.r5, (i) => halfOf(queries[i] as LabelledQuery) === 1))}`,
    'folds chose': [...new Set(chosen)].join('; '),
  });
}
const { r5: base, own: baseOwn } = recalls(plain);
console.log(
  `\nvault bm25 (off): R@5 ${f3(mean(base, () => true))}; metatool ${f3(mean(base, ns('metatool')))}, bfcl ${f3(mean(base, ns('bfcl')))}; A / B ${f3(mean(base, (i) => halfOf(queries[i] as LabelledQuery) === 0))} / ${f3(mean(base, (i) => halfOf(queries[i] as LabelledQuery) === 1))}; own namespace: metatool ${f3(mean(baseOwn, ns('metatool')))}, bfcl ${f3(mean(baseOwn, ns('bfcl')))}`,
);
console.table(rows);

// The audit behind "why not 0.70". A MetaTool query "loses" its labelled plugin on the combined
// vault when the plugin is in the top 5 of a search of its own namespace but not of the combined
// search. The first 80 such queries in SHA-256 order of their id were read by hand, with one rule:
// Y when at least one BFCL function in the combined top 5 does what the query (or one of its
// requests) asks, N otherwise. Borderline cases were marked N.
const AUDIT = `single_11931:N multi_89:Y multi_178:Y single_8114:Y single_9462:N single_1663:N multi_79:Y
multi_20:Y single_1441:Y multi_164:Y single_3967:Y single_17504:N multi_269:N multi_265:N
multi_151:N multi_280:Y multi_153:Y multi_57:Y single_12950:Y single_19433:N single_15753:N
multi_296:Y single_18515:N multi_142:N multi_420:Y multi_104:Y single_9907:Y multi_411:Y
single_13353:N multi_484:Y multi_165:N multi_222:Y single_11799:N single_13652:N multi_42:Y
single_15915:N multi_359:N multi_436:Y single_16614:Y single_13014:N multi_354:N multi_383:Y
single_11487:Y multi_464:N multi_318:N multi_293:Y multi_120:N single_17597:N single_19145:Y
single_12192:N single_1658:N single_18289:N single_5044:Y multi_338:Y single_7375:Y
single_6436:Y multi_134:Y multi_469:Y single_7142:N single_17243:N multi_388:Y multi_302:Y
multi_173:Y single_11431:N multi_237:Y multi_423:N multi_323:N multi_102:N single_6002:N
multi_176:Y multi_373:Y single_18535:Y multi_482:N single_13807:Y single_11894:Y single_20110:N
multi_111:N single_17260:Y single_14453:N single_5874:Y`;

const vault = createToolSearch({ tools });
const lost: { id: string; mass: number; namespace: string }[] = [];
for (const query of queries) {
  const all = new Set((await vault.search(query.query, { limit: 5 })).map((hit) => hit.name));
  const own = (await vault.search(query.query, { limit: 5, namespace: query.namespace })).map(
    (hit) => hit.name,
  );
  const missing = query.relevant.filter((name) => own.includes(name) && !all.has(name)).length;
  if (missing > 0)
    lost.push({
      id: query.id,
      mass: missing / query.relevant.length / queries.length,
      namespace: query.namespace,
    });
}
const sha = (id: string) => createHash('sha256').update(id).digest('hex');
const audited = lost
  .filter((entry) => entry.namespace === 'metatool')
  .sort((x, y) => (sha(x.id) < sha(y.id) ? -1 : 1))
  .slice(0, 80);
const verdicts = AUDIT.split(/\s+/).map((entry) => entry.split(':'));
if (audited.some((entry, i) => entry.id !== `metatool_${verdicts[i]?.[0]}`))
  throw new Error('the audited queries changed: the ranking moved since the audit was made');
const yes = audited.reduce((sum, entry, i) => sum + (verdicts[i]?.[1] === 'Y' ? entry.mass : 0), 0);
const share = yes / audited.reduce((sum, entry) => sum + entry.mass, 0);
const lostIn = (namespace: string) =>
  lost.filter((entry) => entry.namespace === namespace).reduce((sum, entry) => sum + entry.mass, 0);
console.log(
  `\nRecall@5 lost to the combined vault (own-namespace top 5 hit, combined top 5 miss): metatool ${f3(lostIn('metatool'))}, bfcl ${f3(lostIn('bfcl'))} (of all 3,000 queries)`,
);
console.log(
  `Audit of 80 metatool losses: ${verdicts.filter((v) => v[1] === 'Y').length} Y; weighted by recall lost, ${f3(share)} of the loss goes to a BFCL function that does what was asked`,
);
console.log(
  `Bound: bm25 ${f3(mean(base, () => true))} + every metatool loss to an unfitting function (${f3(lostIn('metatool') * (1 - share))}) + every bfcl loss (${f3(lostIn('bfcl'))}) = ${f3(mean(base, () => true) + lostIn('metatool') * (1 - share) + lostIn('bfcl'))}`,
);
