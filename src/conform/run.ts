/**
 * The `mm conform` runner: the checks of checks.ts in order against one platform environment,
 * every request a GET through a Transport, paced (default 500 ms apart: about 30 requests, far
 * inside every public rate bucket of 8.2), and a report of one verdict per assumption.
 */
import type { Clock } from "../core/clock.js";
import type { Transport } from "../wire/transport.js";
import { CHECKS, type Check, type ConformContext, type Probe, type ProbeOptions, type Verdict } from "./checks.js";

export interface ConformOptions {
  transport: Transport;
  clock: Clock;
  /** The partner key (never printed); enables the authenticated probes. */
  apiKey?: string;
  /** X-User-Wallet for authenticated probes (multi_wallet keys). */
  wallet?: string;
  /** Minimum time between two requests. Default 500 ms. */
  paceMs?: number;
  /** Default: every check. */
  checks?: readonly Check[];
}

export interface ConformResult {
  id: string;
  assumption: string;
  source: string;
  verdict: Verdict;
  detail: string;
}

export interface ConformReport {
  results: ConformResult[];
  counts: Record<Verdict, number>;
  requests: number;
}

export const DEFAULT_PACE_MS = 500;

/** `<prefix>_<env>_` of a key of the documented shape, else undefined. */
export function keyPrefixEnv(key: string): string | undefined {
  const m = /^([A-Za-z0-9]+)_([A-Za-z0-9]+)_[A-Za-z0-9]+_[A-Za-z0-9]+$/.exec(key);
  return m ? `${m[1]}_${m[2]}_` : undefined;
}

export async function runConform(opts: ConformOptions): Promise<ConformReport> {
  const paceMs = opts.paceMs ?? DEFAULT_PACE_MS;
  let lastAt: number | undefined;
  let requests = 0;
  const get = async (path: string, p: ProbeOptions = {}): Promise<Probe> => {
    if (lastAt !== undefined && paceMs > 0) {
      const wait = lastAt + paceMs - opts.clock.now();
      if (wait > 0) await opts.clock.sleep(wait);
    }
    lastAt = opts.clock.now();
    requests++;
    const headers: Record<string, string> = { accept: "application/json", ...p.headers };
    if (p.auth && opts.apiKey !== undefined) {
      headers["x-api-key"] = opts.apiKey;
      if (opts.wallet !== undefined) headers["x-user-wallet"] = opts.wallet;
    }
    const res = await opts.transport.request({ method: "GET", path, headers });
    let json: unknown;
    try {
      json = res.body.trim() === "" ? undefined : (JSON.parse(res.body) as unknown);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text: res.body, json };
  };
  const ctx: ConformContext = {
    get,
    hasKey: opts.apiKey !== undefined,
    keyPrefixEnv: opts.apiKey === undefined ? undefined : keyPrefixEnv(opts.apiKey),
    wallet: opts.wallet,
    memo: new Map(),
  };
  const results: ConformResult[] = [];
  for (const c of opts.checks ?? CHECKS) {
    let verdict: Verdict;
    let detail: string;
    try {
      ({ verdict, detail } = await c.run(ctx));
    } catch (e) {
      verdict = "unobservable";
      detail = `request failed: ${e instanceof Error ? e.message : String(e)}`;
    }
    if (opts.apiKey !== undefined) detail = detail.split(opts.apiKey).join("[REDACTED]");
    results.push({ id: c.id, assumption: c.assumption, source: c.source, verdict, detail });
  }
  const counts: Record<Verdict, number> = { confirmed: 0, contradicted: 0, unobservable: 0 };
  for (const r of results) counts[r.verdict]++;
  return { results, counts, requests };
}

/** The report as text: one line per assumption, contradictions first in the summary. */
export function formatReport(r: ConformReport): string {
  const mark: Record<Verdict, string> = { confirmed: "confirmed   ", contradicted: "CONTRADICTED", unobservable: "unobservable" };
  const lines = r.results.map((x) => `${mark[x.verdict]}  ${x.id.padEnd(30)} ${x.assumption} [${x.source}]${x.detail ? `\n${" ".repeat(14)}${x.detail}` : ""}`);
  lines.push("");
  lines.push(`${r.counts.confirmed} confirmed, ${r.counts.contradicted} contradicted, ${r.counts.unobservable} unobservable (${r.requests} GET requests)`);
  return lines.join("\n") + "\n";
}
