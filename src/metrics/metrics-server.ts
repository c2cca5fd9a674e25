/**
 * The daemon's operator HTTP server (node:http), bound to config `metrics.host:port` (default
 * 127.0.0.1:9464; port 0 picks a free one):
 *
 *   GET  /metrics        Prometheus text exposition
 *   GET  /health         200 while the loop ticks (Probes.liveness)
 *   GET  /ready          200 when started and no global halt; 503 + JSON reason otherwise
 *   POST /admin/kill     kill switch: cancel everything, stop quoting   } Authorization: Bearer
 *   POST /admin/resume   clear operator halts (kill_switch, manual, ...) } <admin.token>
 *   POST /admin/reload   re-read the config file, apply it or refuse it  }
 *                        (200 {hash, changed}; 422 {reason, errors}; 404 when the daemon has no file)
 *   GET  /status         the daemon's wallets, markets, orders, inventory, PnL, halts (JSON;
 *                        Authorization: Bearer <metrics.statusToken>; status-route.ts)
 *
 * Admin routes (and /status) answer 404 when no admin (status) token is configured (the feature does not exist), 401
 * without the right token. The token is compared in constant time (SHA-256 of both sides, then
 * timingSafeEqual: neither the content nor the length leaks through timing) and never logged.
 * `/admin/kill` takes an optional JSON body `{"note": "..."}` (at most 4 KiB) kept in the halt's
 * detail.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { HaltChange } from "../bot/risk/types.js";
import { redactSecrets } from "../log/redact.js";
import { haltJson, type ProbeAnswer } from "./health.js";
import { STATUS_PATH, sendStatus, type StatusRouteOptions } from "./status-route.js";

export interface AdminResult {
  changes: readonly HaltChange[];
  /** Anything else worth returning (e.g. orders cancelled). */
  info?: Record<string, unknown>;
}

/** What a config reload answered (src/bot/engine/reload.ts ReloadOutcome fits). */
export type ReloadAnswer =
  | { ok: true; hash: string; previousHash: string; changed: readonly string[] }
  | { ok: false; reason: string; hash: string; errors: readonly string[]; restartNeeded?: readonly string[] | undefined };

/** What the admin routes do. The engine supplies it (risk.kill plus cancel-all on every wallet). */
export interface AdminActions {
  kill(note: string): AdminResult | Promise<AdminResult>;
  resume(): AdminResult | Promise<AdminResult>;
  /** POST /admin/reload; absent: the route is 404 (no config file to read). */
  reload?(): Promise<ReloadAnswer>;
}

export interface ServerLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface MetricsServerOptions {
  host: string;
  port: number;
  metrics: { scrape(): Promise<string>; readonly contentType: string };
  probes: { liveness(): ProbeAnswer; readiness(): ProbeAnswer };
  admin?: {
    /** config `admin.token` (a Secret fits); undefined: admin routes are 404. */
    token: { reveal(): string } | undefined;
    actions: AdminActions;
  };
  /** GET /status; absent (or no token): 404. */
  status?: StatusRouteOptions;
  log?: ServerLog;
}

const MAX_BODY = 4096;
const MAX_NOTE = 200;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/** Constant-time token check of an `Authorization: Bearer <token>` header. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? "");
  const given = m?.[1] ?? "";
  // Compare even when the header is missing, so a probe cannot time the difference.
  const same = timingSafeEqual(digest(given), digest(token));
  return same && given.length > 0 && token.length > 0;
}

function send(res: ServerResponse, status: number, body: string, contentType: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": contentType, "cache-control": "no-store", ...extra });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  send(res, status, JSON.stringify(body) + "\n", "application/json; charset=utf-8", extra);
}

/** Past MAX_BODY the rest is read and dropped (up to MAX_DRAIN) so the client gets its 413, not a reset. */
const MAX_DRAIN = 64 * 1024;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_DRAIN) break;
    if (size <= MAX_BODY) chunks.push(chunk);
  }
  if (size > MAX_BODY) throw new HttpError(413, "body too large");
  return Buffer.concat(chunks).toString("utf8");
}

function noteOf(body: string): string {
  if (body.trim() === "") return "";
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new HttpError(400, "body must be JSON: {\"note\": \"...\"}");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new HttpError(400, "body must be a JSON object");
  const note = (parsed as Record<string, unknown>)["note"];
  if (note === undefined) return "";
  if (typeof note !== "string") throw new HttpError(400, "note must be a string");
  // eslint-disable-next-line no-control-regex
  return redactSecrets(note.replace(/[\u0000-\u001f\u007f]/g, " ")).slice(0, MAX_NOTE);
}

const ROUTES: Readonly<Record<string, string>> = {
  "/metrics": "GET",
  "/health": "GET",
  "/ready": "GET",
  "/admin/kill": "POST",
  "/admin/resume": "POST",
  "/admin/reload": "POST",
  [STATUS_PATH]: "GET",
};

export class MetricsServer {
  private server: Server | undefined;
  private bound: { host: string; port: number } | undefined;

  constructor(private readonly opts: MetricsServerOptions) {}

  /** Listen; resolves with the bound address (the real port when 0 was asked). */
  async start(): Promise<{ host: string; port: number }> {
    if (this.bound) return this.bound;
    const server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => this.fail(res, error));
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.opts.port, this.opts.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    const addr = server.address() as AddressInfo;
    this.bound = { host: addr.address, port: addr.port };
    return this.bound;
  }

  get address(): { host: string; port: number } | undefined {
    return this.bound;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.bound = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? "/";
    const path = url.split("?")[0] ?? "/";
    const method = (req.method ?? "GET").toUpperCase();
    const allowed = ROUTES[path];
    const isAdmin = path.startsWith("/admin/");
    const isStatus = path === STATUS_PATH;
    const noReload = path === "/admin/reload" && this.opts.admin?.actions.reload === undefined;
    if (allowed === undefined || (isAdmin && this.opts.admin?.token === undefined) || (isStatus && this.opts.status?.token === undefined) || noReload) {
      sendJson(res, 404, { error: "not found" });
      return;
    }
    const methodOk = method === allowed || (allowed === "GET" && method === "HEAD");
    if (!methodOk) {
      sendJson(res, 405, { error: "method not allowed" }, { allow: allowed === "GET" ? "GET, HEAD" : allowed });
      return;
    }
    switch (path) {
      case "/metrics":
        send(res, 200, await this.opts.metrics.scrape(), this.opts.metrics.contentType);
        return;
      case "/health":
        this.probe(res, this.opts.probes.liveness());
        return;
      case "/ready":
        this.probe(res, this.opts.probes.readiness());
        return;
      case STATUS_PATH:
        this.status(req, res);
        return;
      default:
        await this.admin(path, req, res);
    }
  }

  private probe(res: ServerResponse, a: ProbeAnswer): void {
    sendJson(res, a.ok ? 200 : 503, a.body);
  }

  private status(req: IncomingMessage, res: ServerResponse): void {
    const status = this.opts.status!;
    if (!bearerMatches(req.headers.authorization, status.token!.reveal())) {
      this.opts.log?.warn({ path: STATUS_PATH, remote: req.socket.remoteAddress }, "status request refused: bad or missing token");
      sendJson(res, 401, { error: "unauthorized" }, { "www-authenticate": 'Bearer realm="mm-status"' });
      return;
    }
    sendStatus(res, status, req);
  }

  private async admin(path: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const admin = this.opts.admin!;
    const token = admin.token!.reveal();
    const remote = req.socket.remoteAddress;
    if (!bearerMatches(req.headers.authorization, token)) {
      this.opts.log?.warn({ path, remote }, "admin request refused: bad or missing token");
      await readBody(req).catch(() => "");
      sendJson(res, 401, { error: "unauthorized" }, { "www-authenticate": 'Bearer realm="mm-admin"' });
      return;
    }
    const body = await readBody(req);
    if (path === "/admin/reload") {
      this.opts.log?.warn({ path, remote }, "admin config reload");
      const r = await admin.actions.reload!();
      sendJson(res, r.ok ? 200 : 422, r);
      return;
    }
    let result: AdminResult;
    if (path === "/admin/kill") {
      const note = noteOf(body);
      this.opts.log?.warn({ path, remote, note }, "admin kill switch");
      result = await admin.actions.kill(note === "" ? "admin kill switch" : `admin: ${note}`);
    } else {
      this.opts.log?.warn({ path, remote }, "admin resume");
      result = await admin.actions.resume();
    }
    sendJson(res, 200, {
      ok: true,
      changes: result.changes.map((c) => ({ type: c.type, ...haltJson(c.halt) })),
      ...(result.info === undefined ? {} : { info: result.info }),
    });
  }

  private fail(res: ServerResponse, error: unknown): void {
    const status = error instanceof HttpError ? error.status : 500;
    const message = error instanceof HttpError ? error.message : "internal error";
    if (status === 500) this.opts.log?.warn({ err: error }, "metrics server request failed");
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendJson(res, status, { error: message });
  }
}

/** Admin actions over the risk facade alone (no cancel-all): the engine wraps it to add that. */
export function riskAdminActions(
  risk: { kill(note: string, nowMs: number): HaltChange[]; resume(nowMs: number): HaltChange[] },
  clock: { now(): number },
): AdminActions {
  return {
    kill: (note) => ({ changes: risk.kill(note, clock.now()) }),
    resume: () => ({ changes: risk.resume(clock.now()) }),
  };
}
