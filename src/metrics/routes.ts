/**
 * Route TEMPLATES for request metrics: `/api/orders/{id}` whatever the id, so a label never
 * carries an order id, a wallet address or a query string (bounded cardinality, nothing
 * personal). The list is the endpoints of spec section 4; anything else is "other".
 */
import { splitPath } from "../ratelimit/table.js";

export const ROUTE_TEMPLATES: readonly string[] = [
  "/health",
  "/ready",
  "/api/matches",
  "/api/matches/{slug}",
  "/api/events",
  "/api/events/featured",
  "/api/events/stats",
  "/api/events/{slug}",
  "/api/markets",
  "/api/markets/disputable",
  "/api/markets/{slug}",
  "/api/markets/{symbol}/orderbook",
  "/api/markets/{symbol}/trades",
  "/api/markets/{symbol}/price-history",
  "/api/markets/{symbol}/traders",
  "/api/markets/{symbol}/traders/by-outcome",
  "/api/markets/{symbol}/ohlc",
  "/api/markets/{symbol}/challenges",
  "/api/crypto-series/{id}/windows",
  "/api/leaderboard",
  "/api/upcoming",
  "/api/tags",
  "/api/challenges",
  "/api/orders/place",
  "/api/orders/place-batch",
  "/api/orders/cancel",
  "/api/orders/cancel-batch",
  "/api/orders/cancel-all",
  "/api/orders/open",
  "/api/orders/history",
  "/api/orders/lookup",
  "/api/orders/{id}",
  "/api/orders/{id}/fills",
  "/api/orders/{id}/fees-summary",
  "/api/withdrawals/request",
  "/api/me/withdrawals",
  "/api/me/withdrawals/fee",
  "/api/me/withdrawals/deposit-sources",
  "/api/me/withdrawals/{id}",
  "/api/me/withdrawals/{id}/cancel",
  "/api/vault/split-signature",
  "/api/vault/merge-signature",
  "/api/vault/convert-signature",
  "/api/me/splits-merges",
  "/api/me/splits-merges/unlockable",
  "/api/me/splits-merges/{id}/unlock",
  "/api/me/vault",
  "/api/me/vault/deploy/sign",
  "/api/me/vault/deploy/submit",
  "/api/me/vault/emergency",
  ...["balances", "positions", "portfolio", "fee-tier", "trades", "fees", "auto-redeem", "deposit-limits", "balance-events"].map(
    (p) => `/api/me/${p}`,
  ),
  "/api/platform/contracts",
  "/api/platform/fee-config",
  "/api/platform/notices",
  "/api/platform/status",
  "/api/compliance/geo",
  "/api/search",
  "/api/search/events",
  "/api/search/matches",
  "/api/search/users",
  "/api/v1/partner/trades",
  "/api/v1/partner/mm-kpis",
  "/api/v1/partner/reconciliation/snapshot",
  "/api/users/{address}/activity",
  "/api/users/by-vault/{vault}/activity",
];

interface Compiled {
  template: string;
  parts: readonly (string | null)[];
  literals: number;
}

const COMPILED: readonly Compiled[] = ROUTE_TEMPLATES.map((template) => {
  const parts = template
    .split("/")
    .filter((s) => s.length > 0)
    .map((s) => (s.startsWith("{") ? null : s));
  return { template, parts, literals: parts.filter((p) => p !== null).length };
});

/** The template of `path` (query ignored); a literal route beats a parameter (`/api/orders/open`). */
export function routeTemplate(path: string): string {
  const { parts } = splitPath(path);
  let best: Compiled | undefined;
  for (const c of COMPILED) {
    if (c.parts.length !== parts.length) continue;
    if (!c.parts.every((p, i) => p === null || p === parts[i])) continue;
    if (best === undefined || c.literals > best.literals) best = c;
  }
  return best?.template ?? "other";
}
