/**
 * Key refusals (spec 5.2 / 5.3: HTTP 401 with an `api_key_*` code) seen on every keyed request
 * and user-stream upgrade, turned into the `auth_refused` halt:
 *
 *   refusal about the key itself (revoked, bad_secret, unknown_key, expired, suspended,
 *   bad_format, ip_denied, auth_required) -> global scope: the one key serves every wallet;
 *   refusal about the wallet (api_key_user_wallet_*, api_key_no_associated_wallet)
 *                                          -> that wallet's scope.
 *
 * The halt clears when a request with the key sent AFTER the last refusal arrived succeeds (2xx;
 * an upgrade that opens): an answer already under way when the key was refused proves nothing.
 * While a refusal holds, a cheap keyed read (`GET /api/me/balances`, its own 600/60 s wallet
 * bucket, through the rate gate) probes with capped backoff, so the halt clears by itself when an
 * operator fixes the key (spec 5.6: a new key may take up to 60 s to work), with no restart.
 *
 * The watch sits at the transport and socket seams (wrapTransport / wrapConnector), so the client
 * (src/api) stays free of daemon concepts. It reads status and error code only, never the key.
 * Logs: one line per state change (refused, refused with another code, accepted again).
 */
import type { HttpRequest, HttpResponse, SocketConnector, SocketLike, Transport } from "../../wire/transport.js";
import type { Clock, TimerHandle } from "../../core/clock.js";
import type { Rng } from "../../core/rng.js";
import type { Logger } from "../../log/index.js";
import { WALLET_REFUSAL_CODES } from "../../api/errors.js";
import { getHeader, readErrorBody } from "../../wire/index.js";
import { GLOBAL, scopeKey, scopeTarget, type HaltScope } from "../risk/types.js";
import { AUTH_RETRY, backoffMs, type RetryPolicy } from "../engine/startup.js";

export interface AuthWatchOptions {
  clock: Clock;
  rng: Rng;
  log: Logger;
  /** Configured wallets (address in any case): refusals are scoped and counted by name. */
  wallets: readonly { name: string; address: string }[];
  /** Raise (detail) or clear (null) `auth_refused` on a scope (CoreRisk.condition fits). */
  condition(scope: HaltScope, detail: string | null): void;
  /** One refusal answer (mm_auth_refusals_total{wallet,code}); wallet is the address, if any. */
  count(wallet: string | undefined, code: string): void;
  /** A cheap keyed read as `wallet` (its answer reaches the watch through the wrapped transport). */
  probe(wallet: string): Promise<unknown>;
  /** Default AUTH_RETRY. */
  policy?: RetryPolicy;
}

/** One scope held refused. */
interface Refusal {
  scope: HaltScope;
  code: string;
  sinceMs: number;
  /** Requests numbered up to this were sent before the last refusal arrived. */
  refusedSeq: number;
  /** Whom the probe reads as. */
  probeWallet: string;
  attempt: number;
  timer: TimerHandle | undefined;
}

export interface AuthRefusalView {
  scope: HaltScope;
  code: string;
  sinceMs: number;
}

/** The platform's code of a 401 answer (any envelope shape), or `http_401`. */
export function refusalCode(res: Pick<HttpResponse, "status" | "body" | "headers">): string {
  let code: string | undefined;
  try {
    code = readErrorBody(res.status, res.body, res.headers)?.code;
  } catch {
    code = undefined;
  }
  return code === undefined || code === "" ? `http_${res.status}` : code;
}

export class AuthWatch {
  private readonly names = new Map<string, string>();
  private readonly refusals = new Map<string, Refusal>();
  private readonly policy: RetryPolicy;
  /** Keyed requests and upgrades sent so far (each gets the next number). */
  private sent = 0;
  private stopped = false;

  constructor(private readonly o: AuthWatchOptions) {
    for (const w of o.wallets) this.names.set(w.address.toLowerCase(), w.name);
    this.policy = o.policy ?? AUTH_RETRY;
  }

  /** A transport whose keyed answers are watched (everything passes through unchanged). */
  wrapTransport(inner: Transport): Transport {
    return {
      request: async (req: HttpRequest): Promise<HttpResponse> => {
        if (getHeader(req.headers, "x-api-key") === undefined) return inner.request(req);
        const seq = ++this.sent;
        const wallet = getHeader(req.headers, "x-user-wallet")?.toLowerCase();
        const res = await inner.request(req);
        if (res.status === 401) this.refused(refusalCode(res), wallet);
        else if (res.status >= 200 && res.status < 300) this.accepted(wallet, seq);
        return res;
      },
    };
  }

  /** A connector whose upgrades are watched: a 401 refusal counts, an opened socket is a success. */
  wrapConnector(inner: SocketConnector): SocketConnector {
    return {
      connect: (path: string, headers: Record<string, string>): SocketLike => {
        const socket = inner.connect(path, headers);
        if (getHeader(headers, "x-api-key") === undefined) return socket;
        const seq = ++this.sent;
        const wallet = getHeader(headers, "x-user-wallet")?.toLowerCase();
        socket.on("open", () => this.accepted(wallet, seq));
        socket.on("error", (err: Error) => {
          const e = err as Error & { httpStatus?: unknown; code?: unknown };
          if (e.httpStatus === 401) this.refused(typeof e.code === "string" && e.code !== "" ? e.code : "http_401", wallet);
        });
        return socket;
      },
    };
  }

  /** A 401 answer for `wallet` (address, lower-cased) or for no wallet. */
  refused(code: string, wallet: string | undefined): void {
    this.o.count(wallet, code);
    if (this.stopped) return;
    const name = wallet === undefined ? undefined : this.names.get(wallet);
    const scope: HaltScope = WALLET_REFUSAL_CODES.has(code) && name !== undefined ? { kind: "wallet", wallet: name } : GLOBAL;
    const key = scopeKey(scope);
    const held = this.refusals.get(key);
    if (held !== undefined) {
      held.refusedSeq = this.sent;
      if (held.code !== code) {
        this.o.log.warn({ haltScope: scope.kind, target: scopeTarget(scope), code, was: held.code }, "API key refused with another code");
        held.code = code;
      }
      return;
    }
    const r: Refusal = {
      scope,
      code,
      sinceMs: this.o.clock.now(),
      refusedSeq: this.sent,
      probeWallet: wallet ?? this.o.wallets[0]?.address.toLowerCase() ?? "",
      attempt: 0,
      timer: undefined,
    };
    this.refusals.set(key, r);
    this.o.log.warn(
      { haltScope: scope.kind, target: scopeTarget(scope), code, wallet: name },
      "API key refused: auth_refused halt, probing with backoff until a request with the key succeeds",
    );
    this.o.condition(scope, `401 ${code}`);
    this.schedule(key, r);
  }

  /** A keyed request numbered `seq` succeeded for `wallet` (or for no wallet). */
  accepted(wallet: string | undefined, seq: number): void {
    if (this.refusals.size === 0) return;
    this.clearIfAfter(scopeKey(GLOBAL), seq);
    const name = wallet === undefined ? undefined : this.names.get(wallet);
    if (name !== undefined) this.clearIfAfter(scopeKey({ kind: "wallet", wallet: name }), seq);
  }

  /** The refusals holding now (shutdown reports, tests). */
  current(): AuthRefusalView[] {
    return [...this.refusals.values()].map((r) => ({ scope: r.scope, code: r.code, sinceMs: r.sinceMs }));
  }

  /** The refusal that holds for a wallet (address or name): its own, else the key's. */
  refusalFor(wallet: string): AuthRefusalView | undefined {
    const name = this.names.get(wallet.toLowerCase()) ?? wallet;
    const r = this.refusals.get(scopeKey({ kind: "wallet", wallet: name })) ?? this.refusals.get(scopeKey(GLOBAL));
    return r === undefined ? undefined : { scope: r.scope, code: r.code, sinceMs: r.sinceMs };
  }

  /** No more probes (the daemon is stopping); refusals are still counted. */
  stop(): void {
    this.stopped = true;
    for (const r of this.refusals.values()) {
      this.o.clock.clearTimeout(r.timer);
      r.timer = undefined;
    }
  }

  private clearIfAfter(key: string, seq: number): void {
    const r = this.refusals.get(key);
    if (r === undefined || seq <= r.refusedSeq) return;
    this.refusals.delete(key);
    this.o.clock.clearTimeout(r.timer);
    r.timer = undefined;
    this.o.log.info(
      { haltScope: r.scope.kind, target: scopeTarget(r.scope), code: r.code, refusedForMs: this.o.clock.now() - r.sinceMs },
      "API key accepted again: auth_refused cleared",
    );
    this.o.condition(r.scope, null);
  }

  private schedule(key: string, r: Refusal): void {
    if (this.stopped || r.timer !== undefined || r.probeWallet === "") return;
    const wait = backoffMs(r.attempt, this.policy, this.o.rng);
    r.timer = this.o.clock.setTimeout(() => {
      r.timer = undefined;
      if (this.refusals.get(key) !== r || this.stopped) return;
      r.attempt += 1;
      // A probe that throws, even synchronously, only means "not yet": the next one follows.
      void Promise.resolve()
        .then(() => this.o.probe(r.probeWallet))
        .catch(() => undefined)
        .then(() => {
          if (this.refusals.get(key) === r) this.schedule(key, r);
        });
    }, wait);
  }
}
