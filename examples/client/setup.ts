/**
 * Where the examples connect. With `PM_BASE_URL` set they talk to that address: a real platform, or
 * `mm sim` (its banner prints a ready `export PM_BASE_URL=... PM_API_KEY=... PM_WALLET=... PM_WALLET_KEY=...`):
 *
 *   PM_BASE_URL=https://api.example.com   the platform's base address (it differs per environment)
 *   PM_API_KEY=...                        the partner API key (X-Api-Key); never put it in code
 *   PM_WALLET=0x...                       the trading wallet (X-User-Wallet, multi_wallet partners)
 *   PM_WALLET_KEY=0x...                   that wallet's private key (signs orders)
 *
 * Without it they start the simulator in-process, on the default scenario, with its TEST
 * credentials (configs/scenarios/default.yaml): same client, same code paths, no network.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createClient, type PartnerClient } from "../../src/api/index.js";
import type { SocketConnector } from "../../src/wire/transport.js";
import { RealClock, type Clock } from "../../src/core/clock.js";
import { RateGate } from "../../src/ratelimit/index.js";
import { WalletSigner } from "../../src/signing/index.js";
import { InProcessSocketConnector, InProcessTransport } from "../../src/sim/http/in-process.js";
import { Pipeline } from "../../src/sim/http/pipeline.js";
import { allRoutes } from "../../src/sim/http/routes/index.js";
import { defaultScenarioPath, loadScenario } from "../../src/sim/platform/scenario.js";
import { Simulator } from "../../src/sim/simulator.js";
import { WsHub } from "../../src/sim/ws/hub.js";
import { WsConnector } from "../../src/stream/index.js";

export interface Connection {
  client: PartnerClient;
  /** For the user stream (UserStream's `connector`). */
  connector: SocketConnector;
  apiKey: string;
  wallet: string;
  signer: WalletSigner;
  clock: Clock;
  /** "platform" or "simulator". */
  target: string;
  close: () => void;
}

export function connect(env: NodeJS.ProcessEnv = process.env): Connection {
  const clock = new RealClock();
  // One gate per process and API key: it paces every wallet's buckets (spec 8) so the
  // platform never has to answer 429.
  const gate = new RateGate({ clock });
  const baseUrl = env.PM_BASE_URL;
  if (baseUrl !== undefined && baseUrl !== "") {
    const apiKey = env.PM_API_KEY;
    const wallet = env.PM_WALLET;
    if (!apiKey || !wallet) throw new Error("set PM_API_KEY and PM_WALLET (and PM_WALLET_KEY) with PM_BASE_URL");
    return {
      client: createClient({ baseUrl, apiKey, clock, gate }),
      connector: new WsConnector({ baseUrl }),
      apiKey,
      wallet,
      signer: WalletSigner.fromEnv("PM_WALLET_KEY", { expectedAddress: wallet, env }),
      clock,
      target: "platform",
      close: () => gate.close(),
    };
  }

  const scenario = loadScenario(defaultScenarioPath());
  const sim = new Simulator(scenario, { clock, flow: false });
  const pipeline = new Pipeline({ sim, routes: allRoutes() });
  const apiKey = scenario.partners[0]!.keys[0]!.key;
  const signer = WalletSigner.fromPrivateKey(scenario.wallets[0]!.privateKey!);
  return {
    client: createClient({ transport: new InProcessTransport(pipeline), apiKey, clock, gate }),
    connector: new InProcessSocketConnector(new WsHub({ sim, pipeline })),
    apiKey,
    wallet: signer.address,
    signer,
    clock,
    target: "simulator",
    close: () => {
      gate.close();
      sim.stop();
    },
  };
}

/** True when the module is the script node was started with (`npx tsx examples/client/x.ts`). */
export function isMain(moduleUrl: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && pathToFileURL(resolve(entry)).href === moduleUrl;
}
