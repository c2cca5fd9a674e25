/**
 * What `mm orders`, `mm cancel-all` and `mm status` share (src/cli/platform-access.ts): the client
 * of a live config (its own API key, or the one handed in; the wallets all, or the one --wallet
 * names), refusals with exit code 2 (an invalid config, a simulator config, a wallet not in the
 * config, naming the ones that are), errors as one scrubbed line, and plain tables.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { describeError, openPlatform, processIo, table } from "../../src/cli/platform-access.js";
import { VirtualClock } from "../../src/core/clock.js";
import { Rng } from "../../src/core/rng.js";
import type { HttpRequest, HttpResponse, Transport } from "../../src/wire/transport.js";
import { ADDRESS_1, ADDRESS_2, API_KEY, KEY_1, KEY_2, tempDir } from "../config/fixtures.js";
import { T0, envelope, json } from "../bot/engine/fakes.js";

const dirs: { cleanup: () => void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

function files(config: string) {
  const d = tempDir({ "keys/api.key": `${API_KEY}\n`, "keys/a.key": `${KEY_1}\n`, "keys/b.key": `${KEY_2}\n`, "mm.yaml": config });
  dirs.push(d);
  return d.path("mm.yaml");
}

const LIVE = `mode: live
platform: { baseUrl: "https://platform.invalid", apiKey: { file: keys/api.key } }
wallets:
  - { name: alpha, privateKey: { file: keys/a.key } }
  - { name: beta, privateKey: { file: keys/b.key } }
strategy: { name: ladder }
`;

/** Records each request with its headers; answers with `answer`. */
class Recording implements Transport {
  readonly seen: HttpRequest[] = [];
  constructor(private readonly answer: (req: HttpRequest) => HttpResponse) {}
  request(req: HttpRequest): Promise<HttpResponse> {
    this.seen.push(req);
    return Promise.resolve(this.answer(req));
  }
}

const header = (req: HttpRequest, name: string): string | undefined => Object.entries(req.headers).find(([k]) => k.toLowerCase() === name)?.[1];

function open(config: string, wallet: string | undefined, deps: Parameters<typeof openPlatform>[2] = {}) {
  let err = "";
  const r = openPlatform(files(config), wallet, { clock: new VirtualClock(T0), rng: new Rng(1), ...deps }, (t) => (err += t));
  return { r, err: () => err };
}

describe("openPlatform", () => {
  it("a live config: every wallet (lower-cased addresses, config order) and a client with the config's key", async () => {
    const t = new Recording(() => json(200, { walletAddress: ADDRESS_1.toLowerCase(), collateral: { total: "1", available: "1", locked: "0" }, positions: [] }));
    const { r, err } = open(LIVE, undefined, { transport: t, pageSize: 7 });
    expect(err()).toBe("");
    if (r === 2) throw new Error("refused");
    expect(r.wallets).toEqual([
      { name: "alpha", address: ADDRESS_1.toLowerCase() },
      { name: "beta", address: ADDRESS_2.toLowerCase() },
    ]);
    expect(r.pageSize).toBe(7);
    expect(r.config.mode).toBe("live");
    await r.client.forWallet(r.wallets[0]!.address).portfolio.balances().catch(() => undefined);
    expect(t.seen).toHaveLength(1);
    expect(header(t.seen[0]!, "x-api-key")).toBe(API_KEY);
    expect(header(t.seen[0]!, "x-user-wallet")?.toLowerCase()).toBe(ADDRESS_1.toLowerCase());
    r.close();
  });

  it("--wallet picks that wallet only; a key handed in replaces the config's", async () => {
    const other = "pmk_live_fedcba9876543210_ZyXwVuTsRqPoNmLkJiHgFeDcBa987654";
    const t = new Recording(() => json(200, {}));
    const { r } = open(LIVE, "beta", { transport: t, apiKey: other });
    if (r === 2) throw new Error("refused");
    expect(r.wallets).toEqual([{ name: "beta", address: ADDRESS_2.toLowerCase() }]);
    expect(r.pageSize).toBeUndefined();
    await r.client.forWallet(r.wallets[0]!.address).portfolio.balances().catch(() => undefined);
    expect(header(t.seen[0]!, "x-api-key")).toBe(other);
    r.close();
  });

  it("a wallet not in the config: 2, naming the ones that are", () => {
    const { r, err } = open(LIVE, "gamma");
    expect(r).toBe(2);
    expect(err()).toMatch(/^--wallet "gamma": no wallet of that name in .*mm\.yaml \(wallets: alpha, beta\)\n$/);
  });

  it("a simulator config: 2, with the hint that a live config may point at mm sim", () => {
    const { r, err } = open("mode: simulator\nwallets:\n  - { name: alpha }\nstrategy: { name: ladder }\n", undefined);
    expect(r).toBe(2);
    expect(err()).toMatch(/mm\.yaml: mode: simulator: its platform is the simulator inside the `mm run` process; give a live config \(mode: live, platform\.baseUrl, platform\.apiKey\), which may point at `mm sim`\n$/);
  });

  it("an invalid config: 2, its problems as check-config gives them", () => {
    const { r, err } = open(LIVE.replace("strategy: { name: ladder }", "strategy: { name: nope }"), undefined);
    expect(r).toBe(2);
    expect(err()).toMatch(/mm\.yaml: invalid\n$/);
  });

  it("close() closes the rate gate: a request after it is refused locally", async () => {
    const t = new Recording(() => json(200, {}));
    const { r } = open(LIVE, undefined, { transport: t });
    if (r === 2) throw new Error("refused");
    r.close();
    await expect(r.client.forWallet(r.wallets[0]!.address).portfolio.balances()).rejects.toThrow();
    expect(t.seen).toEqual([]);
  });
});

describe("describeError", () => {
  it("an API error: code, HTTP status and detail on one line", async () => {
    const t = new Recording(() => envelope(401, "api_key_revoked"));
    const { r } = open(LIVE, undefined, { transport: t });
    if (r === 2) throw new Error("refused");
    const e = await r.client.forWallet(r.wallets[0]!.address).portfolio.balances().catch((x: unknown) => x);
    expect(describeError(e)).toMatch(/^api_key_revoked \(HTTP 401\): /);
    r.close();
  });

  it("any other error: its message; anything else: as text; secrets scrubbed from both", () => {
    expect(describeError(new Error("socket hang up"))).toBe("socket hang up");
    expect(describeError(`refused ${API_KEY}`)).toBe("refused [REDACTED]");
    expect(describeError(new Error(`bad key ${API_KEY}`))).toBe("bad key [REDACTED]");
    expect(describeError(42)).toBe("42");
  });
});

describe("table", () => {
  it("a plain table: the head and every row, numbers as text, no colour codes", () => {
    const text = table(["wallet", "open"], [["alpha", 3], ["beta", 0]]);
    const lines = text.split("\n");
    expect(lines.find((l) => l.includes("wallet"))).toMatch(/wallet\s+│\s+open/);
    expect(lines.find((l) => l.includes("alpha"))).toMatch(/alpha\s+│\s+3/);
    expect(lines.find((l) => l.includes("beta"))).toMatch(/beta\s+│\s+0/);
    expect(text).not.toContain("\u001b[");
  });
});

describe("processIo", () => {
  it("writes to the process's stdout and stderr as given", () => {
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      processIo.stdout("to stdout\n");
      processIo.stderr("to stderr\n");
      expect(out.mock.calls.map((c) => c[0])).toEqual(["to stdout\n"]);
      expect(err.mock.calls.map((c) => c[0])).toEqual(["to stderr\n"]);
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  });
});
