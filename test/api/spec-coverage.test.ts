/**
 * Every path of the spec's endpoint list (section 4) has a client call: the table in
 * docs/client.md maps each to a method, and every method it names exists on the client.
 *
 * The spec is the platform's document, kept outside this repository (`../shared/spec/partner-api.md`,
 * or `PARTNER_API_SPEC`); where it is absent only the table's own check runs. The deposit relay and
 * withdrawal-security routes have no path in the spec, so they never reach the list.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createClient } from "../../src/api/index.js";
import { FakeTransport } from "./fake-transport.js";
import { VirtualClock } from "../../src/core/clock.js";
import { Rng } from "../../src/core/rng.js";

const SPEC = process.env.PARTNER_API_SPEC ?? resolve(__dirname, "../../../shared/spec/partner-api.md");
const DOC = resolve(__dirname, "../../docs/client.md");

/** Paths named in section 4, `{param}` form; a relative `/x` after a full path is resolved against its parent. */
export function specPaths(text: string): string[] {
  const start = text.indexOf("## 4. Endpoints");
  const end = text.indexOf("## 5. ", start);
  if (start < 0 || end < 0) throw new Error("spec: section 4 (Endpoints) not found");
  const out = new Set<string>();
  for (const line of text.slice(start, end).split("\n")) {
    let parent: string | undefined;
    for (const m of line.matchAll(/`(?:(?:GET|POST|DELETE) )?(\/[^`\s]*)`/g)) {
      let p = m[1]!.split("?")[0]!;
      if (p.includes("*") || p.startsWith("/api/v2")) continue;
      if (p.startsWith("/api/") || p === "/health" || p === "/ready") parent = p.slice(0, p.lastIndexOf("/"));
      else if (parent !== undefined) p = parent + p;
      else continue;
      out.add(p.replace(/:(\w+)/g, "{$1}"));
    }
  }
  return [...out].sort();
}

interface Row {
  method: string;
  path: string;
  call: string;
}

function tableRows(doc: string): Row[] {
  const rows: Row[] = [];
  for (const m of doc.matchAll(/^\| (GET|POST|DELETE) \| `([^`]+)` \| `([^`]+)`/gm)) rows.push({ method: m[1]!, path: m[2]!, call: m[3]! });
  return rows;
}

function resolveCall(call: string): unknown {
  const clock = new VirtualClock(0);
  const client = createClient({ transport: new FakeTransport(clock), apiKey: "pmk_sim_0123456789abcdef_S3cr3t", clock, rng: new Rng(1) });
  const roots: Record<string, unknown> = { client, wallet: client.forWallet("0x" + "1".repeat(40)) };
  const [root, ...rest] = call.split(".");
  let at: unknown = roots[root!];
  for (const key of rest) at = at === undefined || at === null ? undefined : (at as Record<string, unknown>)[key];
  return at;
}

describe("client coverage of the spec's endpoints", () => {
  const rows = tableRows(readFileSync(DOC, "utf8"));

  it("every row of the docs/client.md table names a method the client has", () => {
    expect(rows.length).toBeGreaterThan(60);
    const missing = rows.filter((r) => typeof resolveCall(r.call) !== "function").map((r) => `${r.path} -> ${r.call}`);
    expect(missing).toEqual([]);
    const paths = rows.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it.skipIf(!existsSync(SPEC))("every path of the spec's endpoint list has a row (and no row names a path the spec lacks)", () => {
    const spec = specPaths(readFileSync(SPEC, "utf8"));
    expect(spec.length).toBeGreaterThan(60);
    const documented = new Set(rows.map((r) => r.path));
    expect(spec.filter((p) => !documented.has(p))).toEqual([]);
    expect([...documented].filter((p) => !spec.includes(p))).toEqual([]);
  });

  it("the parser resolves shorthand paths against the full path before them", () => {
    const text = "## 4. Endpoints\n| GET | `/api/me/balances`, `/positions` |\nPublic: `GET /api/platform/contracts`, `/fee-config`; `GET /api/markets/:symbol/trades`\n## 5. Auth\n";
    expect(specPaths(text)).toEqual(["/api/markets/{symbol}/trades", "/api/me/balances", "/api/me/positions", "/api/platform/contracts", "/api/platform/fee-config"]);
  });
});
