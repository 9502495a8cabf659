import { editDistance } from '../tools/edit-distance.js';

/**
 * The known name a mistyped one most likely meant: a case-insensitive match, else the nearest
 * within a small edit distance (a third of the name's length, at most 3). Null when none is close.
 */
export function closestName(name: string, candidates: readonly string[]): string | null {
  const lower = name.toLowerCase();
  const exact = candidates.find((candidate) => candidate.toLowerCase() === lower);
  if (exact !== undefined) return exact;
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const found = editDistance(lower, candidate.toLowerCase(), limit);
    if (found < bestDistance) {
      best = candidate;
      bestDistance = found;
    }
  }
  return best;
}
