/**
 * Printable views of a loaded config: a few human lines for `mm check-config` and the daemon's
 * start-up log, and a JSON-safe copy (amounts as decimal strings, secrets as `[REDACTED]`).
 */
import { formatMicros } from "../core/money.js";
import { REDACTED, isSecret } from "../core/secret.js";
import type { Config } from "./load.js";

/** A JSON-safe deep copy: bigint micros -> decimal strings, Secret -> "[REDACTED]". */
export function configView(config: Config): Record<string, unknown> {
  return toView(config) as Record<string, unknown>;
}

function toView(value: unknown): unknown {
  if (isSecret(value)) return REDACTED;
  if (typeof value === "bigint") return formatMicros(value);
  if (Array.isArray(value)) return value.map(toView);
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toView(v);
    return out;
  }
  return value;
}

/** A short summary, one fact per line, with no secret in it. */
export function describeConfig(config: Config): string[] {
  const lines: string[] = [];
  if (config.mode === "live") {
    const p = config.platform;
    lines.push(`mode: live, platform ${p.baseUrl} (${p.rateLimitPerMin} req/min tier, key from ${p.apiKey.origin})`);
  } else if (config.mode === "paper") {
    const p = config.paper;
    lines.push(`mode: paper, public data from ${config.platform.baseUrl}, orders matched locally (start ${formatMicros(p.startingCash)} per wallet, latency ${p.latency.entryMs}+${p.latency.responseMs} ms, queue ${p.queue.model})`);
  } else {
    const s = config.simulator;
    const speed = s.speed === undefined ? "" : ` x${s.speed}`;
    lines.push(`mode: simulator, seed ${s.seed}, ${s.clock} clock${speed}, scenario ${s.scenario ?? "(built-in)"}`);
  }
  lines.push(`instance: ${config.instance.id}`);
  lines.push(`wallets: ${config.wallets.length}`);
  for (const w of config.wallets) {
    const markets = w.markets ? `, markets ${w.markets.join(", ")}` : "";
    lines.push(`  ${w.name} ${w.address} (key from ${w.privateKey.origin}${markets})`);
  }
  const m = config.markets;
  const f = m.filters;
  const filters = [
    f.tag.length ? `tag=${f.tag.join(",")}` : "",
    f.vertical.length ? `vertical=${f.vertical.join(",")}` : "",
    f.stage.length ? `stage=${f.stage.join(",")}` : "",
  ].filter(Boolean);
  lines.push(
    `markets: ${m.slugs.length} slugs, ${m.eventSlugs.length} events` +
      `${filters.length ? `, filters ${filters.join(" ")}` : ""}, at most ${m.maxMarkets}, refresh ${m.refreshSec}s`,
  );
  const paramCount = Object.keys(config.strategy.params).length;
  lines.push(`strategy: ${config.strategy.name} (${paramCount} param${paramCount === 1 ? "" : "s"})`);
  const r = config.risk;
  lines.push(
    `risk: order <= ${formatMicros(r.maxOrderSize)}, position/market <= ${formatMicros(r.maxPositionPerMarket)}, ` +
      `notional/wallet <= ${formatMicros(r.maxNotionalPerWallet)}, total <= ${formatMicros(r.maxNotionalTotal)}, ` +
      `daily loss <= ${formatMicros(r.dailyLossLimit)}, band ${formatMicros(r.priceBand.min)}..${formatMicros(r.priceBand.max)}`,
  );
  lines.push(`metrics: http://${config.metrics.host}:${config.metrics.port}/metrics`);
  lines.push(`admin token: ${config.admin.token ? `from ${config.admin.token.origin}` : "none (admin endpoints off)"}`);
  return lines;
}
