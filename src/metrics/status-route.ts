/**
 * `GET /status` on the daemon's operator server: what the running daemon holds, as JSON, for
 * `mm status` and for machines. Wallets by label and address (never a key), markets, every open
 * order, inventory, PnL and halts. Money is a decimal string (6 decimals at most, never a float).
 *
 * Authentication: `Authorization: Bearer <metrics.statusToken>`, compared in constant time (the
 * same check as the admin routes). No status token configured: the route does not exist (404),
 * so a daemon only answers it when its operator chose a token. A wrong or missing token: 401.
 * A token is never logged and never part of the body: the document is built from labels,
 * addresses, ids and figures, and its only free text (halt targets and details, a lease request's
 * error) passes through the log scrubber.
 *
 * The document (version 1) is built by the daemon (src/bot/engine/status-document.ts); this
 * module owns its shape and the HTTP answer.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Halt } from "../bot/risk/types.js";
import { scopeTarget } from "../bot/risk/types.js";
import { redactSecrets } from "../log/redact.js";

export const STATUS_PATH = "/status";
export const STATUS_VERSION = 1;

export interface StatusOrder {
  /** Platform order id; null while the placement's outcome is not known yet. */
  orderId: string | null;
  clientOrderId: string;
  market: string;
  outcome: number;
  side: "BUY" | "SELL";
  /** Decimal string, e.g. "0.455". */
  price: string;
  /** Shares ordered (decimal string). */
  size: string;
  /** Shares filled so far (decimal string). */
  filled: string;
  /** The daemon's state of the order (resting, sent, unknown, cancel_requested, ...). */
  state: string;
  createdAt: string;
}

export interface StatusPosition {
  market: string;
  outcome: number;
  /** Signed shares (decimal string). */
  qty: string;
  /** Average cost per share; null when flat. */
  avgCost: string | null;
  realised: string;
  fees: string;
}

export interface StatusPnl {
  realised: string;
  unrealised: string;
  fees: string;
  net: string;
}

/** A wallet's Kubernetes Lease as this replica sees it (shard.lease; src/bot/guards/wallet-lease.ts). */
export interface StatusLease {
  /** The Lease object's name. */
  name: string;
  /** held, waiting (not held yet in this process), lost (given up, being taken back), released (at a stop). */
  state: string;
  /** The holder last read from the API server (this replica's instance id while held); null: free or not known. */
  holder: string | null;
  /** ISO time of this replica's last successful write of the lease (acquire or renewal); null: never. */
  renewedAt: string | null;
  /** Seconds since then (null: never). */
  renewAgeSec: number | null;
  /** ISO time the wallet entered `state`. */
  since: string;
  /** Leases lost in this process. */
  losses: number;
  /** The last failed lease request's error (null once a request was answered again). */
  error: string | null;
}

export interface StatusWallet {
  name: string;
  address: string;
  state: string;
  streamSubscribed: boolean;
  markets: string[];
  openOrders: number;
  unknownOrders: number;
  pnl: StatusPnl;
  positions: StatusPosition[];
  orders: StatusOrder[];
  /** Only with shard.lease, once the wallet's lease was asked for. */
  lease?: StatusLease;
}

export interface StatusMarket {
  symbol: string;
  /** The platform's status of the market row (OPEN, PAUSED, ...). */
  status: string;
  /** The daemon's phase for it (quote, pre_market, pull, closed...). */
  phase: string;
  /** Wallet labels assigned to it (empty: any wallet). */
  wallets: string[];
  openOrders: number;
}

export interface StatusHalt {
  scope: string;
  target: string;
  reason: string;
  detail: string;
  /** ISO time it was raised; null for an extra risk hook's halts (their text only is known). */
  since: string | null;
}

export interface StatusDocument {
  version: typeof STATUS_VERSION;
  at: string;
  instance: string;
  running: boolean;
  ready: boolean;
  wallets: StatusWallet[];
  markets: StatusMarket[];
  totals: { openOrders: number; unknownOrders: number; fills: number; positions: number; sharesHeld: string; pnl: StatusPnl };
  halts: StatusHalt[];
  /** The active config: its hash (mm_config_info), reloads applied since start-up, since when (ISO). */
  config?: { hash: string; reloads: number; since: string };
}

export interface StatusRouteOptions {
  /** config `metrics.statusToken` (a Secret fits); undefined: /status is 404. */
  token: { reveal(): string } | undefined;
  /** The document now. */
  document(): StatusDocument;
}

/** A halt as the document shows it; its free text (target, detail) through the log scrubber. */
export function statusHalt(h: Halt): StatusHalt {
  return {
    scope: h.scope.kind,
    target: redactSecrets(scopeTarget(h.scope)),
    reason: h.reason,
    detail: redactSecrets(h.detail),
    since: new Date(h.sinceMs).toISOString(),
  };
}

/** The answer to an authenticated GET /status (the caller checked the route, method and token). */
export function sendStatus(res: ServerResponse, opts: StatusRouteOptions, req: IncomingMessage): void {
  const body = JSON.stringify(opts.document()) + "\n";
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(req.method === "HEAD" ? undefined : body);
}
