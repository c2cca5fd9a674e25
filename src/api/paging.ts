/** Page walkers shared by the cursor-paged endpoints. */
import type { HttpMethod } from "../wire/transport.js";
import { ApiError, LOCAL_CODES } from "./errors.js";
import type { Ok } from "./results.js";

/**
 * Follow `nextCursor` until it is null (or absent). A cursor seen twice would loop forever: it
 * ends the walk with an ApiError instead.
 */
export async function* cursorPages<P extends { nextCursor?: string | null | undefined }>(
  fetchPage: (cursor: string | undefined) => Promise<Ok<P>>,
  where: { method: HttpMethod; path: string },
  startCursor?: string,
): AsyncGenerator<Ok<P>, void, undefined> {
  const seen = new Set<string>();
  let cursor = startCursor;
  if (cursor !== undefined) seen.add(cursor);
  for (;;) {
    const page = await fetchPage(cursor);
    yield page;
    const next = page.data.nextCursor;
    if (next === null || next === undefined || next === "") return;
    if (seen.has(next)) {
      throw new ApiError({
        source: "schema",
        status: page.meta.status,
        code: LOCAL_CODES.invalidResponse,
        message: "nextCursor repeats an earlier cursor; stopping the walk",
        method: where.method,
        path: where.path,
        handling: "fix_request",
        meta: page.meta,
      });
    }
    seen.add(next);
    cursor = next;
  }
}

/** The items of every page, each id once (keyset pages should not repeat, this makes sure). */
export async function* uniqueItems<P, T>(
  pages: AsyncIterable<Ok<P>>,
  itemsOf: (page: P) => readonly T[],
  idOf: (item: T) => string,
): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  for await (const page of pages) {
    for (const item of itemsOf(page.data)) {
      const id = idOf(item);
      if (seen.has(id)) continue;
      seen.add(id);
      yield item;
    }
  }
}
