/**
 * Stable in-place sort for the short lists of the quote cycle (a market's live orders, its desired
 * quotes, the pairs the reconciler matches: a handful to a few dozen items).
 *
 * `Array.prototype.sort` is stable too, but V8's TimSort copies the array into a scratch buffer on
 * every call, whatever its length: at several sorts per cycle that was a tenth of the bytes the
 * fast engine allocated per quote cycle. An insertion sort touches nothing but the array and is
 * the faster of the two below a few dozen items; above `INSERTION_MAX` this hands over to the
 * built-in sort, so a long list never costs n^2. Same order as `Array.prototype.sort` with the
 * same comparator (both stable), which test/core/small-sort.test.ts checks on random lists.
 */

/** Longest list sorted by insertion; longer ones go to Array.prototype.sort. */
export const INSERTION_MAX = 32;

/** Sort `items` in place, stable, and return it (like Array.prototype.sort with a comparator). */
export function sortSmall<T>(items: T[], compare: (a: T, b: T) => number): T[] {
  const n = items.length;
  if (n > INSERTION_MAX) return items.sort(compare);
  for (let i = 1; i < n; i++) {
    const x = items[i]!;
    let j = i - 1;
    // Strictly greater moves right: equal items keep their order (stable).
    while (j >= 0 && compare(items[j]!, x) > 0) {
      items[j + 1] = items[j]!;
      j--;
    }
    items[j + 1] = x;
  }
  return items;
}
