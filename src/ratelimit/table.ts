/**
 * Spec 8.2 as data: every rate bucket of the platform, shared by the simulator (which enforces it,
 * src/ratelimit/fixed-window.ts) and the client (which paces itself with it, src/ratelimit/gate.ts).
 *
 * Choices where the spec is silent (reported to the lead for docs/spec-gaps.md):
 * - One row is one bucket: the endpoints listed on a row share one counter (e.g. `GET /api/orders/open` and
 *   `GET /api/orders/{id}` draw on the same 300/60 s). A per-endpoint server would be more generous, so the
 *   shared reading never makes the client exceed it.
 * - `GET /api/leaderboard?search=<non-empty>` draws ONLY on the search row, not also on the plain row.
 * - Literal sibling routes are never taken as a path parameter: `/api/orders/lookup` is not `/api/orders/{id}`,
 *   `/api/markets/disputable` is not `/api/markets/{slug}`, `/api/me/withdrawals/fee` is not `{id}`.
 * - `GET /api/markets/{symbol}/traders/by-outcome` shares the `/traders` bucket (same resource, conservative).
 * - Rows with `stated: false` carry numbers the spec does not give: the events list (ip, 1200/60 s, generous)
 *   and the three partner feeds (scope `partner`, 60/60 s each, scaled like wallet buckets per 8.1).
 * - Endpoints absent from the table (e.g. `/api/orders/lookup`, `/api/me/balance-events`, `/api/tags`) get no
 *   bucket: neither side limits them.
 */

export type BucketScope = "ip" | "wallet" | "partner";
/** What a request does, for client priorities: cancels first, then places, then the rest, reads last. */
export type RequestClass = "cancel" | "place" | "vault" | "withdrawal" | "read";
export type HttpMethod = "GET" | "POST";

export interface BucketRule {
  readonly id: string;
  readonly method: HttpMethod;
  /** Path patterns: `:name` matches one segment (never a reserved sibling literal), a final `*` one or more. */
  readonly paths: readonly string[];
  /** The row applies only when this query parameter is present and non-empty (`?search=`). */
  readonly whenQuery?: string;
  /** The row applies only when this query parameter is absent or empty (the plain leaderboard row). */
  readonly unlessQuery?: string;
  readonly scope: BucketScope;
  /** Listed (default) limit, before tier scaling. */
  readonly limit: number;
  readonly windowSec: number;
  readonly class: RequestClass;
  /** false when the number is our choice because the spec gives none. */
  readonly stated: boolean;
}

const ORDER_PATHS_GET = [
  "/api/orders/open",
  "/api/orders/history",
  "/api/orders/:id",
  "/api/orders/:id/fills",
  "/api/orders/:id/fees-summary",
];
const ME_PORTFOLIO = ["vault", "balances", "positions", "portfolio", "fee-tier", "trades", "fees", "auto-redeem"];

/** Scope order inside each table: the platform checks ip buckets before wallet buckets (8.1 lists ip first). */
export const RATE_TABLE: readonly BucketRule[] = [
  r("orders-post-ip", "POST", ["/api/orders/*"], "ip", 6000, 60, "place"),
  r("orders-place", "POST", ["/api/orders/place"], "wallet", 20, 1, "place"),
  r("orders-place-batch", "POST", ["/api/orders/place-batch"], "wallet", 8, 1, "place"),
  r("orders-cancel", "POST", ["/api/orders/cancel"], "wallet", 40, 1, "cancel"),
  r("orders-cancel-all", "POST", ["/api/orders/cancel-all"], "wallet", 1, 1, "cancel"),
  r("orders-cancel-batch", "POST", ["/api/orders/cancel-batch"], "wallet", 5, 1, "cancel"),
  r(
    "vault-sign",
    "POST",
    ["/api/vault/split-signature", "/api/vault/merge-signature", "/api/vault/convert-signature"],
    "wallet",
    3,
    1,
    "vault",
  ),
  r("vault-post-ip", "POST", ["/api/vault/*"], "ip", 100, 60, "vault"),
  r("orders-read", "GET", ORDER_PATHS_GET, "wallet", 300, 60, "read"),
  r("markets-read", "GET", ["/api/markets", "/api/markets/:slug", "/api/markets/:symbol/orderbook"], "ip", 600, 60, "read"),
  r("markets-trades", "GET", ["/api/markets/:symbol/trades", "/api/markets/:symbol/price-history"], "ip", 240, 60, "read"),
  r(
    "markets-traders",
    "GET",
    ["/api/markets/:symbol/traders", "/api/markets/:symbol/traders/by-outcome", "/api/markets/:symbol/ohlc"],
    "ip",
    120,
    60,
    "read",
  ),
  r("me-portfolio", "GET", ME_PORTFOLIO.map((p) => `/api/me/${p}`), "wallet", 600, 60, "read"),
  r("me-deposit-limits", "GET", ["/api/me/deposit-limits"], "wallet", 120, 60, "read"),
  r("vault-emergency", "POST", ["/api/me/vault/emergency"], "wallet", 120, 60, "vault"),
  r(
    "withdrawals-read",
    "GET",
    ["/api/me/withdrawals", "/api/me/withdrawals/:id", "/api/me/withdrawals/deposit-sources"],
    "wallet",
    60,
    60,
    "read",
  ),
  r("withdrawals-fee", "GET", ["/api/me/withdrawals/fee"], "wallet", 30, 60, "read"),
  r("withdrawals-cancel", "POST", ["/api/me/withdrawals/:id/cancel"], "wallet", 10, 60, "withdrawal"),
  r("withdrawals-request", "POST", ["/api/withdrawals/request"], "ip", 60, 60, "withdrawal"),
  { ...r("leaderboard", "GET", ["/api/leaderboard"], "ip", 600, 60, "read"), unlessQuery: "search" },
  { ...r("leaderboard-search", "GET", ["/api/leaderboard"], "ip", 120, 60, "read"), whenQuery: "search" },
  r("search", "GET", ["/api/search", "/api/search/*"], "ip", 60, 60, "read"),
  // Not stated by the spec (8.2 last line): our numbers.
  r("events-list", "GET", ["/api/events", "/api/events/*"], "ip", 1200, 60, "read", false),
  r("partner-trades", "GET", ["/api/v1/partner/trades"], "partner", 60, 60, "read", false),
  r("partner-mm-kpis", "GET", ["/api/v1/partner/mm-kpis"], "partner", 60, 60, "read", false),
  r("partner-reconciliation", "GET", ["/api/v1/partner/reconciliation/snapshot"], "partner", 60, 60, "read", false),
];

function r(
  id: string,
  method: HttpMethod,
  paths: readonly string[],
  scope: BucketScope,
  limit: number,
  windowSec: number,
  cls: RequestClass,
  stated = true,
): BucketRule {
  return { id, method, paths, scope, limit, windowSec, class: cls, stated };
}

/**
 * Literal routes that sit where a path parameter would: `/api/orders/{id}` never matches them. Keyed by the
 * literal prefix in front of the parameter.
 */
const RESERVED_AFTER: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  [
    "/api/orders",
    new Set(["open", "history", "lookup", "place", "place-batch", "cancel", "cancel-batch", "cancel-all"]),
  ],
  ["/api/markets", new Set(["disputable"])],
  ["/api/me/withdrawals", new Set(["fee", "deposit-sources"])],
]);

type Segment = { kind: "lit"; text: string } | { kind: "param"; reserved: ReadonlySet<string> } | { kind: "rest" };

interface CompiledRule {
  readonly rule: BucketRule;
  readonly patterns: readonly (readonly Segment[])[];
}

function compilePattern(pattern: string): Segment[] {
  const parts = pattern.split("/").filter((s) => s.length > 0);
  const out: Segment[] = [];
  parts.forEach((p, i) => {
    if (p === "*") {
      if (i !== parts.length - 1) throw new Error(`'*' must be last in ${pattern}`);
      out.push({ kind: "rest" });
    } else if (p.startsWith(":")) {
      const prefix = "/" + parts.slice(0, i).join("/");
      out.push({ kind: "param", reserved: RESERVED_AFTER.get(prefix) ?? new Set() });
    } else {
      out.push({ kind: "lit", text: p });
    }
  });
  return out;
}

function matches(segments: readonly Segment[], parts: readonly string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    if (s.kind === "rest") return parts.length > i;
    const p = parts[i];
    if (p === undefined) return false;
    if (s.kind === "lit" ? p !== s.text : s.reserved.has(p)) return false;
  }
  return parts.length === segments.length;
}

export interface SplitPath {
  readonly parts: readonly string[];
  readonly query: URLSearchParams;
}

/** Path without query, trailing slash and empty segments; the query as parsed parameters. */
export function splitPath(pathWithQuery: string): SplitPath {
  const hash = pathWithQuery.indexOf("#");
  const noHash = hash >= 0 ? pathWithQuery.slice(0, hash) : pathWithQuery;
  const q = noHash.indexOf("?");
  const path = q >= 0 ? noHash.slice(0, q) : noHash;
  const query = new URLSearchParams(q >= 0 ? noHash.slice(q + 1) : "");
  return { parts: path.split("/").filter((s) => s.length > 0), query };
}

const SCOPE_ORDER: Record<BucketScope, number> = { ip: 0, wallet: 1, partner: 2 };
/** Paths a RateTable remembers its answer for (see `memo`). */
const MEMO_MAX = 1024;

/**
 * Answers by method, then path: looked up without building a "METHOD path" string per request.
 * Bounded: emptied when MEMO_MAX paths are held.
 */
class PathMemo<T> {
  private readonly byMethod = new Map<string, Map<string, T>>();
  private size = 0;

  get(method: string, path: string): T | undefined {
    return this.byMethod.get(method)?.get(path);
  }

  set(method: string, path: string, value: T): void {
    if (this.size >= MEMO_MAX) {
      this.byMethod.clear();
      this.size = 0;
    }
    let paths = this.byMethod.get(method);
    if (paths === undefined) this.byMethod.set(method, (paths = new Map<string, T>()));
    if (!paths.has(path)) this.size++;
    paths.set(path, value);
  }
}

/** A table compiled for lookups; `bucketsFor` on the default table is the common entry point. */
export class RateTable {
  private readonly compiled: readonly CompiledRule[];
  private readonly byId: ReadonlyMap<string, BucketRule>;
  /**
   * Answers already worked out, by "METHOD path": a quoting wallet asks about the same few paths
   * on every cycle and every request. Bounded (emptied when full): paths carrying cursors or ids
   * are many, and each is cheap to work out again.
   */
  private readonly memo = new PathMemo<readonly BucketRule[]>();
  private readonly classMemo = new PathMemo<RequestClass>();

  constructor(readonly rules: readonly BucketRule[] = RATE_TABLE) {
    this.compiled = rules.map((rule) => ({ rule, patterns: rule.paths.map(compilePattern) }));
    this.byId = new Map(rules.map((rule) => [rule.id, rule]));
    if (this.byId.size !== rules.length) throw new Error("duplicate bucket ids in rate table");
  }

  rule(id: string): BucketRule | undefined {
    return this.byId.get(id);
  }

  /**
   * Every bucket that applies to the request, in the platform's checking order: ip buckets first, then
   * wallet, then partner; table order within a scope. Empty when the endpoint is not in the table.
   */
  bucketsFor(method: string, pathWithQuery: string): readonly BucketRule[] {
    const known = this.memo.get(method, pathWithQuery);
    if (known !== undefined) return known;
    const rules = Object.freeze(this.lookup(method, pathWithQuery));
    this.memo.set(method, pathWithQuery, rules);
    return rules;
  }

  /** Requests per minute the tightest ip bucket of `method path` allows; throws when none applies. */
  ipPerMinute(method: string, path: string): number {
    const rules = this.bucketsFor(method, path).filter((r) => r.scope === "ip");
    if (rules.length === 0) throw new Error(`no ip bucket for ${method} ${path}`);
    return Math.min(...rules.map((r) => (r.limit * 60) / r.windowSec));
  }

  /** `requestClass` of a request against this table, remembered like `bucketsFor`. */
  classOf(method: string, pathWithQuery: string): RequestClass {
    const known = this.classMemo.get(method, pathWithQuery);
    if (known !== undefined) return known;
    const cls = requestClass(method, pathWithQuery, this.bucketsFor(method, pathWithQuery));
    this.classMemo.set(method, pathWithQuery, cls);
    return cls;
  }

  private lookup(method: string, pathWithQuery: string): BucketRule[] {
    const m = method.toUpperCase();
    const { parts, query } = splitPath(pathWithQuery);
    const out: BucketRule[] = [];
    for (const c of this.compiled) {
      const rule = c.rule;
      if (rule.method !== m) continue;
      if (rule.whenQuery !== undefined && !hasValue(query, rule.whenQuery)) continue;
      if (rule.unlessQuery !== undefined && hasValue(query, rule.unlessQuery)) continue;
      if (c.patterns.some((p) => matches(p, parts))) out.push(rule);
    }
    return out.sort((a, b) => SCOPE_ORDER[a.scope] - SCOPE_ORDER[b.scope]);
  }
}

function hasValue(query: URLSearchParams, name: string): boolean {
  return query.getAll(name).some((v) => v.trim().length > 0);
}

export const DEFAULT_RATE_TABLE = new RateTable(RATE_TABLE);

/** Every bucket of the default table that applies to `method path` (see RateTable.bucketsFor). */
export function bucketsFor(method: string, pathWithQuery: string): readonly BucketRule[] {
  return DEFAULT_RATE_TABLE.bucketsFor(method, pathWithQuery);
}

export const DEFAULT_RATE_LIMIT_PER_MIN = 600;

/** Whether the partner tier (`rateLimitPerMin`) scales this bucket: wallet and per-partner buckets, never ip. */
export function scales(rule: BucketRule): boolean {
  return rule.scope !== "ip";
}

/** Effective limit under a tier (8.1): floor(limit * rateLimitPerMin / 600), minimum 1; ip buckets unscaled. */
export function scaledLimit(rule: BucketRule, rateLimitPerMin: number = DEFAULT_RATE_LIMIT_PER_MIN): number {
  if (!scales(rule)) return rule.limit;
  if (!Number.isFinite(rateLimitPerMin) || rateLimitPerMin < 0) {
    throw new RangeError(`rateLimitPerMin must be a finite number >= 0, got ${rateLimitPerMin}`);
  }
  const scaled = Math.floor((rule.limit * rateLimitPerMin) / DEFAULT_RATE_LIMIT_PER_MIN);
  return Math.max(1, scaled);
}

const CLASS_OF_PATH: readonly [string, RequestClass][] = [
  ["/api/orders/cancel", "cancel"],
  ["/api/orders/cancel-batch", "cancel"],
  ["/api/orders/cancel-all", "cancel"],
  ["/api/orders/place", "place"],
  ["/api/orders/place-batch", "place"],
];

/**
 * The class of a request (for priorities): the class of its most specific bucket (wallet before ip), or from
 * the path for requests without one. A GET is always a read.
 */
export function requestClass(method: string, pathWithQuery: string, rules?: readonly BucketRule[]): RequestClass {
  if (method.toUpperCase() === "GET") return "read";
  const { parts } = splitPath(pathWithQuery);
  const path = "/" + parts.join("/");
  const direct = CLASS_OF_PATH.find(([p]) => p === path);
  if (direct) return direct[1];
  const applicable = rules ?? bucketsFor(method, pathWithQuery);
  const specific = applicable.find((x) => x.scope === "wallet") ?? applicable[0];
  if (specific) return specific.class;
  if (path.startsWith("/api/vault/") || path.startsWith("/api/me/vault")) return "vault";
  if (path.includes("withdrawals")) return "withdrawal";
  return "read";
}

/** Priorities in Bottleneck's convention (0..9, lower runs first). */
export const CLASS_PRIORITY: Readonly<Record<RequestClass, number>> = {
  cancel: 1,
  place: 3,
  vault: 5,
  withdrawal: 5,
  read: 7,
};
