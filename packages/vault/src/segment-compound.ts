/** Shortest dictionary word a compound may be split into. */
const MIN_PART = 3;
const MAX_PART = 20;
const MAX_COMPOUND = 64;

/**
 * Splits a run-together word (`airqualityforecast`, `pdfurltool`) into the dictionary words that
 * cover most of it, longest parts preferred. Returns no parts when nothing in it is a known word.
 */
export function segmentCompound(word: string, dictionary: ReadonlySet<string>): string[] {
  const length = Math.min(word.length, MAX_COMPOUND);
  // best[i]: the highest score for word[0, i); a part of length n scores n² so long parts win.
  const best = new Float64Array(length + 1);
  const from = new Int32Array(length + 1).fill(-1);
  for (let end = 1; end <= length; end += 1) {
    best[end] = best[end - 1] as number;
    from[end] = -1;
    for (let start = Math.max(0, end - MAX_PART); start <= end - MIN_PART; start += 1) {
      if (!dictionary.has(word.slice(start, end))) continue;
      const score = (best[start] as number) + (end - start) ** 2;
      if (score > (best[end] as number)) {
        best[end] = score;
        from[end] = start;
      }
    }
  }
  const parts: string[] = [];
  let end = length;
  while (end > 0) {
    const start = from[end] as number;
    if (start < 0) {
      end -= 1;
      continue;
    }
    parts.push(word.slice(start, end));
    end = start;
  }
  return parts.reverse();
}
