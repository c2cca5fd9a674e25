/**
 * A dead daemon's orders on the in-process simulator, for `mm orders` and `mm cancel-all`: a
 * daemon quotes for a while, then is dropped without cancelling anything (abandon(), as a crash
 * would); no synthetic takers, so nothing fills behind the test's back. And the live config
 * (key files in a temp dir, chmod 600) the commands are given, with the simulator's transport
 * in place of platform.baseUrl.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDaemon } from "../../src/bot/engine/daemon.js";
import type { PlatformDeps } from "../../src/cli/platform-access.js";
import { parseConfig } from "../../src/config/index.js";
import { Rng } from "../../src/core/rng.js";
import { createLogger } from "../../src/log/index.js";
import type { HttpRequest, HttpResponse, Transport } from "../../src/wire/transport.js";
import { API_KEY, platformOpenOrders, run, settle, startSim, walletAddress, walletKey, type SimHarness } from "../integration/harness.js";

export const NAMES = ["alpha", "beta"] as const;

/** Where each wallet quotes: alpha on A and C, beta on B. */
const ASSIGNED: Record<(typeof NAMES)[number], string[]> = { alpha: ["A", "C"], beta: ["B"] };

/** The daemon's transport for the commands, with a hook that may answer (or drop) a request itself. */
export class HookedTransport implements Transport {
  readonly log: { method: string; path: string; wallet: string | undefined }[] = [];
  hook: ((req: HttpRequest, wallet: string | undefined, forward: () => Promise<HttpResponse>) => Promise<HttpResponse>) | undefined;
  constructor(private readonly inner: Transport) {}
  request(req: HttpRequest): Promise<HttpResponse> {
    const wallet = Object.entries(req.headers).find(([k]) => k.toLowerCase() === "x-user-wallet")?.[1]?.toLowerCase();
    this.log.push({ method: req.method, path: req.path, wallet });
    const forward = (): Promise<HttpResponse> => this.inner.request(req);
    return this.hook === undefined ? forward() : this.hook(req, wallet, forward);
  }
}

export interface DeadDaemon {
  h: SimHarness;
  transport: HookedTransport;
  deps: PlatformDeps;
  /** The live config file for the commands. */
  configFile: string;
  simConfigFile: string;
  /** Open order ids on the platform, of one wallet (by name), optionally one market. */
  open(name: (typeof NAMES)[number], market?: string): Promise<string[]>;
  cleanup(): void;
}

export function address(name: (typeof NAMES)[number]): string {
  return walletAddress(NAMES.indexOf(name));
}

export async function deadDaemon(): Promise<DeadDaemon> {
  const markets = ["A", "B", "C"].map((symbol) => ({ symbol, opensAt: "-10m", closesAt: "+1d", takerArrivalPerMin: 0 }));
  const h = startSim({ wallets: 2, markets });
  const env: Record<string, string> = { W0: walletKey(0), W1: walletKey(1) };
  const daemonConfig = parseConfig(
    `mode: simulator
instance: { id: dead }
wallets:
  - { name: alpha, privateKey: "\${W0}", markets: [A, C] }
  - { name: beta, privateKey: "\${W1}", markets: [B] }
markets: { slugs: [A, B, C], maxMarkets: 10, refreshSec: 30 }
strategy: { name: ladder, params: { size: "10", levels: 2 } }
quoting: { refreshMs: 1000, priceToleranceTicks: 1, pullBeforeCloseSec: 30 }
metrics: { host: 127.0.0.1, port: 0, processMetrics: false }
log: { level: silent }
`,
    "dead-daemon.yaml",
    env,
  );
  const daemon = createDaemon(daemonConfig, {
    clock: h.clock,
    rng: new Rng(5),
    transport: h.transport,
    connector: h.connector,
    apiKey: API_KEY,
    logger: createLogger({ level: "silent" }),
    tuning: { fillSyncMs: 10_000, driftCheckMs: 15_000, statusRefreshMs: 5_000 },
  });
  await settle(h.clock, daemon.start());
  await run(h.clock, 8_000);
  daemon.abandon();
  await run(h.clock, 1_000);

  const dir = mkdtempSync(join(tmpdir(), "mm-orders-"));
  mkdirSync(join(dir, "keys"));
  const secret = (file: string, value: string): void => {
    writeFileSync(join(dir, "keys", file), `${value}\n`);
    chmodSync(join(dir, "keys", file), 0o600);
  };
  secret("api.key", API_KEY);
  secret("alpha.key", walletKey(0));
  secret("beta.key", walletKey(1));
  const common = `strategy: { name: ladder, params: { size: "10" } }
shutdown: { cancelDeadlineSec: 5 }
log: { level: silent }
`;
  const configFile = join(dir, "live.yaml");
  writeFileSync(
    configFile,
    `mode: live
platform: { baseUrl: "https://platform.invalid", apiKey: { file: keys/api.key } }
instance: { id: ops }
wallets:
${NAMES.map((n) => `  - { name: ${n}, privateKey: { file: keys/${n}.key }, markets: ${JSON.stringify(ASSIGNED[n])} }`).join("\n")}
${common}`,
  );
  const simConfigFile = join(dir, "sim.yaml");
  writeFileSync(simConfigFile, `mode: simulator\nwallets:\n  - { name: alpha }\n${common}`);
  const transport = new HookedTransport(h.transport);
  return {
    h,
    transport,
    deps: { transport, clock: h.clock, rng: new Rng(9) },
    configFile,
    simConfigFile,
    open: async (name, market) =>
      (await platformOpenOrders(h, address(name)))
        .filter((o) => market === undefined || o.marketId === market)
        .map((o) => o.id)
        .sort(),
    cleanup: () => {
      h.sim.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Captured {
  stdout: (t: string) => void;
  stderr: (t: string) => void;
  out: () => string;
  err: () => string;
}

export function capture(): Captured {
  let out = "";
  let err = "";
  return { stdout: (t) => (out += t), stderr: (t) => (err += t), out: () => out, err: () => err };
}
