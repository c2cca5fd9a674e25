/**
 * Start-up steps that talk to the platform (issue item 1): platform contracts and fee config,
 * each wallet's vault (retrying the onboarding answers of spec 5.3 with backoff), and the
 * inventory anchor (positions and balances at a server time). Adoption of orders already open is
 * the open-order walk of fill-sync.ts, run once before quoting starts.
 *
 * Retries wait on the Clock with jitter from the Rng (deterministic under a VirtualClock) and stop
 * at the caller's AbortSignal. A key refused (HTTP 401) is retried too, on its own slower backoff
 * (AUTH_RETRY, capped at 30 s) and for as long as the daemon runs: a new key may take up to 60 s
 * to work (spec 5.6) and an operator fixes a key without a restart. The refusal itself is logged
 * and halted on by auth-watch.ts (once per state change); each retry here logs at debug only.
 */
import type { PartnerClient, WalletClient } from "../../api/index.js";
import { isApiError } from "../../api/errors.js";
import type { Clock } from "../../core/clock.js";
import { parseMicros } from "../../core/money.js";
import type { Rng } from "../../core/rng.js";
import type { Logger } from "../../log/index.js";
import type { PlatformContracts } from "../../signing/index.js";
import type { FeeConfig, Position } from "../../wire/index.js";
import { anchorPositionsOf, type Inventory } from "../fills/inventory.js";

export interface PlatformInfo {
  contracts: PlatformContracts;
  feeConfig: FeeConfig;
}

export interface RetryPolicy {
  initialMs: number;
  maxMs: number;
}

/** Codes that mean "the wallet is still being set up: ask again in a few seconds" (spec 5.3). */
export const ONBOARDING_CODES: ReadonlySet<string> = new Set(["vault_not_deployed", "kyc_blocked"]);

/** Backoff of retries after a key refusal: 1 s doubling to 30 s (half jitter), without end. */
export const AUTH_RETRY: RetryPolicy = { initialMs: 1_000, maxMs: 30_000 };

/** Exponential backoff with half jitter: [d/2, d], d = min(max, initial * 2^attempt). */
export function backoffMs(attempt: number, p: RetryPolicy, rng: Rng): number {
  const d = Math.min(p.maxMs, p.initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(d / 2 + rng.float() * (d / 2));
}

/** Failures worth waiting out (the platform or the network is having a moment). */
export function isTransient(e: unknown): boolean {
  if (!isApiError(e)) return false;
  if (ONBOARDING_CODES.has(e.code)) return true;
  return e.handling === "retry_backoff" || e.handling === "wait_retry_after" || e.handling === "resend_same" || e.handling === "onboarding_wait" || e.handling === "unknown_outcome" || e.source === "transport" || e.source === "circuit";
}

/** The platform refused the key (HTTP 401, any `api_key_*` code or `auth_required`). */
export function isAuthRefusal(e: unknown): boolean {
  return isApiError(e) && e.source === "http" && e.status === 401;
}

export interface RetryDeps {
  clock: Clock;
  rng: Rng;
  log: Logger;
  policy: RetryPolicy;
  /** Backoff after a key refusal. Default AUTH_RETRY. */
  authPolicy?: RetryPolicy | undefined;
  signal?: AbortSignal | undefined;
}

/** The wait before the next try after `e`, or undefined when `e` is not worth retrying. */
function retryWaitMs(e: unknown, attempt: number, deps: RetryDeps): number | undefined {
  if (isAuthRefusal(e)) return backoffMs(attempt, deps.authPolicy ?? AUTH_RETRY, deps.rng);
  if (!isTransient(e)) return undefined;
  const advised = isApiError(e) && e.retryAfterSec !== undefined ? e.retryAfterSec * 1000 : undefined;
  return Math.max(advised ?? 0, backoffMs(attempt, deps.policy, deps.rng));
}

function logRetry(deps: RetryDeps, e: unknown, fields: Record<string, unknown>, msg: string): void {
  if (isAuthRefusal(e)) deps.log.debug(fields, msg);
  else deps.log.info(fields, msg);
}

/** Run `fn` until it succeeds, retrying transient failures and key refusals with backoff; anything else throws. */
export async function retrying<T>(what: string, deps: RetryDeps, fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      const wait = retryWaitMs(e, attempt, deps);
      if (wait === undefined) throw e;
      logRetry(deps, e, { step: what, attempt: attempt + 1, waitMs: wait, code: isApiError(e) ? e.code : undefined }, "start-up step failed: retrying");
      await deps.clock.sleep(wait, deps.signal);
    }
  }
}

export async function fetchPlatformInfo(api: Pick<PartnerClient, "platform">, deps: RetryDeps): Promise<PlatformInfo> {
  const contracts = (await retrying("platform contracts", deps, () => api.platform.contracts())).data;
  const feeConfig = (await retrying("fee config", deps, () => api.platform.feeConfig())).data;
  return { contracts, feeConfig };
}

/** Raised while the vault exists but is not deployed yet (retried like the onboarding codes). */
class VaultNotReady extends Error {
  readonly code = "vault_not_deployed";
}

/**
 * The wallet's vault (the `maker` of every order), the wallet's first keyed read. Waits while
 * onboarding is under way: an answer `deployed: false`, `vault_not_deployed` or `kyc_blocked` is
 * retried with backoff (or Retry-After), and so is a key refusal (AUTH_RETRY), for as long as the
 * signal allows. `onWait` hears the onboarding waits only (a refused key is not onboarding).
 */
export async function resolveVault(api: WalletClient, deps: RetryDeps, onWait?: (reason: string) => void): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    let wait: number | undefined;
    let reason: string;
    try {
      const r = await api.portfolio.vault();
      if (r.data.deployed) return r.data.vaultAddress;
      reason = new VaultNotReady().code;
      wait = backoffMs(attempt, deps.policy, deps.rng);
    } catch (e) {
      wait = retryWaitMs(e, attempt, deps);
      if (wait === undefined) throw e;
      reason = isApiError(e) ? e.code : "error";
      if (isAuthRefusal(e)) {
        deps.log.debug({ attempt: attempt + 1, reason, waitMs: wait }, "vault read refused (API key): retrying");
        await deps.clock.sleep(wait, deps.signal);
        continue;
      }
    }
    onWait?.(reason);
    deps.log.info({ attempt: attempt + 1, reason, waitMs: wait }, "vault not ready: retrying");
    await deps.clock.sleep(wait, deps.signal);
  }
}

/**
 * Anchor the wallet's inventory on the platform's figures: positions (every page) and the
 * collateral total, at the server time of the positions read. Fills stamped at or before it are
 * already in those figures. `symbolOf` maps a position's market id to the symbol fills carry.
 */
export async function anchorInventory(
  api: WalletClient,
  wallet: string,
  inventory: Inventory,
  clock: Clock,
  symbolOf: (marketId: string) => string,
): Promise<{ positions: number; cash: bigint }> {
  const bal = await api.portfolio.balances();
  const read = await readPositions(api, symbolOf);
  const ts = read.serverTimeMs ?? clock.now();
  const cash = parseMicros(bal.data.collateral.total);
  const positions = anchorPositionsOf(read.positions);
  inventory.anchor(wallet, ts, positions, cash);
  return { positions: positions.length, cash };
}

/**
 * Every `/api/me/positions` row (market ids mapped to symbols) and the server time of the first
 * page: the platform's figures are as of then.
 */
export async function readPositions(api: WalletClient, symbolOf: (marketId: string) => string): Promise<{ positions: Position[]; serverTimeMs: number | undefined }> {
  const first = await api.portfolio.positionsPage();
  const rows: Position[] = [...first.data.positions];
  const seen = new Set<string>();
  let cursor = first.data.nextCursor;
  while (cursor !== null && cursor !== undefined && cursor !== "" && !seen.has(cursor)) {
    seen.add(cursor);
    const page = await api.portfolio.positionsPage({ cursor });
    rows.push(...page.data.positions);
    cursor = page.data.nextCursor;
  }
  return { positions: rows.map((p) => ({ ...p, marketId: symbolOf(p.marketId) })), serverTimeMs: first.meta.serverTime };
}
