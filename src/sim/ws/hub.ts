/**
 * The `/ws/user` gateway of the simulator: authenticates upgrades (spec 5.1: `X-Api-Key`
 * header, or `?key=` for browsers; the header wins) and runs one WsSession per connection.
 * Both the node:http server (real `ws` sockets) and the in-process socket connector use it, so
 * a stream client sees the same protocol either way.
 *
 * A refused upgrade is an ordinary HTTP answer (401/403/404 with the standard envelope and the
 * common headers), built by the pipeline so it carries X-Request-Id and a trace id too.
 */
import { createLogger, type Logger } from "../../log/index.js";
import type { Pipeline, RawResponse } from "../http/pipeline.js";
import { callerAddress } from "../http/pipeline.js";
import type { AuthorizeSuccess } from "../platform/platform.js";
import type { Simulator } from "../simulator.js";
import { DEFAULT_PING_INTERVAL_MS, DEFAULT_REORDER_FLUSH_MS, WsSession, type WsSink } from "./session.js";

export const USER_WS_PATH = "/ws/user";

export interface WsUpgradeRequest {
  /** Path with query string (`/ws/user?key=...`). */
  url: string;
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  remoteAddress?: string;
}

export type WsUpgradeResult = { ok: true; auth: AuthorizeSuccess } | { ok: false; response: RawResponse };

export interface WsHubOptions {
  sim: Simulator;
  /** Builds refusal answers (common headers, trace ids). */
  pipeline: Pipeline;
  logger?: Logger;
  /** Default 15 s (docs/spec-gaps.md). */
  pingIntervalMs?: number;
  reorderFlushMs?: number;
  /** As PipelineOptions.trustForwardedFor. Default true. */
  trustForwardedFor?: boolean;
}

function header(h: WsUpgradeRequest["headers"], name: string): string | readonly string[] | undefined {
  for (const [k, v] of Object.entries(h)) if (k.toLowerCase() === name) return v;
  return undefined;
}

function first(v: string | readonly string[] | undefined): string | undefined {
  return typeof v === "string" ? v : v?.[0];
}

export class WsHub {
  readonly sim: Simulator;
  private readonly pipeline: Pipeline;
  private readonly logger: Logger;
  private readonly pingIntervalMs: number;
  private readonly reorderFlushMs: number;
  private readonly trustForwardedFor: boolean;
  private readonly live = new Set<WsSession>();
  private nextId = 1;

  constructor(opts: WsHubOptions) {
    this.sim = opts.sim;
    this.pipeline = opts.pipeline;
    this.logger = opts.logger ?? createLogger({ level: "silent" });
    this.pingIntervalMs = opts.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS;
    this.reorderFlushMs = opts.reorderFlushMs ?? DEFAULT_REORDER_FLUSH_MS;
    this.trustForwardedFor = opts.trustForwardedFor ?? true;
    if (!(this.pingIntervalMs > 0)) throw new RangeError("pingIntervalMs must be positive");
  }

  /** Check an upgrade: the path, then the key (header or `?key=`) and wallet gates. */
  upgrade(req: WsUpgradeRequest): WsUpgradeResult {
    const q = req.url.indexOf("?");
    const path = "/" + (q >= 0 ? req.url.slice(0, q) : req.url).split("/").filter((s) => s.length > 0).join("/");
    if (path !== USER_WS_PATH) {
      return { ok: false, response: this.pipeline.errorResponse(404, "not_found", `no WebSocket gateway at ${path}; the user gateway is ${USER_WS_PATH}`) };
    }
    const query = new URLSearchParams(q >= 0 ? req.url.slice(q + 1) : "");
    const forwarded = header(req.headers, "x-forwarded-for");
    const ip = callerAddress(typeof forwarded === "string" ? forwarded : forwarded?.join(","), req.remoteAddress, this.trustForwardedFor);
    const r = this.sim.platform.authorizeWs({
      apiKeyHeader: header(req.headers, "x-api-key"),
      queryKey: query.get("key"),
      userWalletHeader: first(header(req.headers, "x-user-wallet")),
      ip,
    });
    if (!r.ok) return { ok: false, response: this.pipeline.failureResponse(r) };
    return { ok: true, auth: r };
  }

  /** Start a session on an accepted connection. */
  open(auth: AuthorizeSuccess, sink: WsSink): WsSession {
    const session = new WsSession(auth, sink, {
      id: this.nextId++,
      sim: this.sim,
      logger: this.logger,
      pingIntervalMs: this.pingIntervalMs,
      reorderFlushMs: this.reorderFlushMs,
      onEnd: (s) => this.live.delete(s),
    });
    this.live.add(session);
    this.logger.debug({ session: session.id, wallet: session.wallet, partner: session.partnerId }, "/ws/user connected");
    return session;
  }

  sessions(): readonly WsSession[] {
    return [...this.live];
  }

  get size(): number {
    return this.live.size;
  }

  /** Close every session with a close frame (shutdown). */
  closeAll(code = 1001, reason = "server shutting down"): void {
    for (const s of [...this.live]) s.close(code, reason);
  }
}
