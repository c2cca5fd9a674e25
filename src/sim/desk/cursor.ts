/**
 * Keyset cursors (docs/spec-gaps.md): base64url of `createdAtMs:id`, newest first, each page
 * continuing with strictly older (createdAt, id) pairs, so rows added or removed between pages
 * never shift a window. Legacy ISO-8601 cursors (spec 4.6) mean "created strictly before".
 *
 * Ids are ordered "naturally" (shorter first, then lexically): counter ids `o9` < `o10`, which is
 * their creation order, without zero padding.
 */

export interface Key {
  ms: number;
  id: string;
}

/** A parsed cursor: rows strictly below `key`, or (legacy) created strictly before `beforeMs`. */
export type Cursor = { kind: "key"; key: Key } | { kind: "time"; beforeMs: number };

/**
 * A legacy `before` (spec 4.8's lists): epoch milliseconds, or an ISO-8601 date-time
 * (`2026-06-01T12:00:00Z`); undefined for anything else, a bare date included (every list answers
 * it with the same 400, "before must be an ISO-8601 date-time or epoch milliseconds").
 */
export function legacyBeforeMs(text: string): number | undefined {
  const ms = /^\d{1,16}$/.test(text) ? Number(text) : /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isFinite(ms) ? ms : undefined;
}

export function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareKeys(a: Key, b: Key): number {
  return a.ms !== b.ms ? a.ms - b.ms : compareIds(a.id, b.id);
}

/** Opaque cursor text: base64url of UTF-8 (shared by every cursor the simulator hands out). */
export function base64url(text: string): string {
  return Buffer.from(text, "utf8").toString("base64url");
}

/** The inverse of base64url, or undefined when the text is not base64url at all. */
export function fromBase64url(text: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  return Buffer.from(text, "base64url").toString("utf8");
}

export function encodeCursor(key: Key): string {
  return base64url(`${key.ms}:${key.id}`);
}

const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/;

export function decodeCursor(text: string): Cursor | undefined {
  if (ISO_RE.test(text)) {
    const ms = Date.parse(text);
    return Number.isFinite(ms) ? { kind: "time", beforeMs: ms } : undefined;
  }
  const decoded = fromBase64url(text);
  if (decoded === undefined) return undefined;
  const m = /^(\d{1,16}):([\x21-\x7e]{1,128})$/.exec(decoded);
  if (m === null) return undefined;
  const ms = Number(m[1]);
  return Number.isSafeInteger(ms) ? { kind: "key", key: { ms, id: m[2]! } } : undefined;
}

/** Is a row with this key on the far (older) side of the cursor? */
export function isBelow(key: Key, cursor: Cursor | undefined): boolean {
  if (cursor === undefined) return true;
  if (cursor.kind === "time") return key.ms < cursor.beforeMs;
  return compareKeys(key, cursor.key) < 0;
}
