/** Safe paths and query strings: path parameters are percent-encoded, queries built with URLSearchParams. */

export type QueryScalar = string | number | boolean;
export type QueryValue = QueryScalar | readonly QueryScalar[] | undefined | null;
export type QueryParams = Readonly<Record<string, QueryValue>>;

/** One path segment, percent-encoded (a `/` or `?` inside an id cannot change the route). */
export function segment(value: string | number): string {
  const s = String(value);
  if (s === "") throw new RangeError("empty path parameter");
  return encodeURIComponent(s);
}

/** Template tag: every interpolated value is a path segment. */
export function path(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  let out = strings[0] ?? "";
  values.forEach((v, i) => {
    out += segment(v) + (strings[i + 1] ?? "");
  });
  return out;
}

/** Append a query; undefined/null values are left out, arrays become repeated keys. */
export function withQuery(p: string, params: QueryParams | undefined): string {
  if (params === undefined) return p;
  const qs = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const v of value as readonly QueryScalar[]) qs.append(key, String(v));
    } else {
      qs.append(key, String(value));
    }
  }
  const text = qs.toString();
  return text === "" ? p : `${p}?${text}`;
}
