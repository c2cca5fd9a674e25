/**
 * "Did you mean ...?": the closest known name to a misspelt one, for unknown commands, flags and
 * config keys. Closeness is the Damerau-Levenshtein distance (a swap of two neighbours counts as
 * one edit, the commonest typo), compared case-insensitively; a candidate is offered only when
 * it is within a third of the longer name's length (at least 1, at most 3 edits), so `zzz` gets
 * no suggestion rather than a random one.
 */

/** Edit distance with adjacent transpositions (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const rows = x.length + 1;
  const cols = y.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let v = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) v = Math.min(v, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = v;
    }
  }
  return d[rows * cols - 1]!;
}

/** The known name closest to `name`, when close enough to be a typo of it. Ties: the first. */
export function closest(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    if (candidate === name) continue;
    const distance = editDistance(name, candidate);
    const allowed = Math.min(3, Math.max(1, Math.floor(Math.max(name.length, candidate.length) / 3)));
    if (distance <= allowed && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** ` (did you mean X?)`, or "" when nothing is close. */
export function didYouMean(name: string, known: Iterable<string>): string {
  const c = closest(name, known);
  return c === undefined ? "" : ` (did you mean ${c}?)`;
}
