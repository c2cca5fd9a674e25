/**
 * "Natural" order of identifiers: digit runs compare as numbers ("t99" before "t100", so ids
 * issued by a counter keep their issue order), everything else code unit by code unit. A total
 * order (ids that are equal as numbers, "t01" and "t1", fall back to plain string order) that
 * needs no locale data.
 */

export function compareIds(a: string, b: string): number {
  if (a === b) return 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    if (isDigit(ca) && isDigit(cb)) {
      let ei = i;
      let ej = j;
      while (ei < a.length && isDigit(a.charCodeAt(ei))) ei++;
      while (ej < b.length && isDigit(b.charCodeAt(ej))) ej++;
      // Leading zeros do not change the number; a longer run of significant digits is larger.
      let si = i;
      let sj = j;
      while (si < ei - 1 && a.charCodeAt(si) === 48) si++;
      while (sj < ej - 1 && b.charCodeAt(sj) === 48) sj++;
      if (ei - si !== ej - sj) return ei - si < ej - sj ? -1 : 1;
      const ra = a.slice(si, ei);
      const rb = b.slice(sj, ej);
      if (ra !== rb) return ra < rb ? -1 : 1;
      i = ei;
      j = ej;
      continue;
    }
    if (ca !== cb) return ca < cb ? -1 : 1;
    i++;
    j++;
  }
  if (a.length - i !== b.length - j) return a.length - i < b.length - j ? -1 : 1;
  // Equal as numbers ("t01" and "t1"): plain order keeps it total.
  return a < b ? -1 : 1;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
