/**
 * Order signing and verification throughput, on one core.
 *
 * sign_orders_fast: build struct + hand-rolled EIP-712 digest + secp256k1 sign (our path).
 * sign_orders_viem: the same struct building + viem's generic `signTypedData`, same orders, same run.
 * verify_orders: recover the signer of signed orders (the simulator's path, cache bypassed), against
 * viem's `recoverTypedDataAddress`; verify_orders_resend: the same orders again through the LRU
 * cache (resends after 503 / shard_owner_unavailable).
 *
 * Rounds of ours and the baseline alternate and the best round of each is kept; rates are per CPU
 * second (see `compare`): the machine is shared, and wall time there mostly measures the neighbours.
 */
import { recoverTypedDataAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { Rng } from "../src/core/rng.js";
import {
  RecoveryCache,
  WalletSigner,
  buildOrder,
  keccakReady,
  prepareOrder,
  recoverOrderSigner,
  rngSaltSource,
  orderTypedData,
  type BuildOrderParams,
  type BuiltOrder,
  type Hex,
  type OrderIntent,
  type PlatformContracts,
  type SigningMarket,
} from "../src/signing/index.js";

const N = Number(process.env["BENCH_SIGNING_N"] ?? 2000);
/** Recovery is ~5x slower than signing: verify a prefix of the same orders to keep the run short. */
const N_VERIFY = Math.min(N, Number(process.env["BENCH_VERIFY_N"] ?? 600));
const ROUNDS = 3;

const CONTRACTS: PlatformContracts = {
  chainId: 137,
  domain: { name: "PartnerExchange", version: "1" },
  exchange: {
    binary: "0x4bfb41d5b3570defd03c39a9a4d8de6bd8b8982e",
    negRisk: "0xc5d563a36ae78145c45a50134d48a1215220f80a",
  },
};

function markets(rng: Rng): SigningMarket[] {
  const token = () => BigInt(rng.hex(32)).toString();
  return Array.from({ length: 20 }, (_, i) => ({
    symbol: `MKT-${i}`,
    yesTokenId: token(),
    noTokenId: token(),
    feeTakerBps: rng.pick([0, 50, 100, 200, null]),
    negRiskEligible: i % 4 === 0,
  }));
}

function intents(rng: Rng): OrderIntent[] {
  return Array.from({ length: N }, () => ({
    outcome: rng.int(2),
    side: rng.bool() ? ("BUY" as const) : ("SELL" as const),
    price: BigInt(rng.range(1, 999)) * 1000n,
    quantity: BigInt(rng.range(1, 5_000_000)) * 1000n,
  }));
}

/** CPU milliseconds of `fn` (user + system of this process). */
async function cpuMs(fn: () => Promise<void>): Promise<number> {
  const start = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/**
 * Best-of-ROUNDS ops/s of `ours` and `base`, run alternately. Rates are per CPU second of this
 * process, i.e. what one core sustains: on an idle machine that equals wall time (the work is
 * pure computation), on a shared one it ignores the time spent waiting for a core.
 */
async function compare(n: number, ours: () => Promise<void>, base: () => Promise<void>): Promise<[number, number]> {
  let bestOurs = Infinity;
  let bestBase = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    bestBase = Math.min(bestBase, await cpuMs(base));
    bestOurs = Math.min(bestOurs, await cpuMs(ours));
  }
  return [(n / bestOurs) * 1000, (n / Math.max(bestBase, 1e-3)) * 1000];
}

export async function run(): Promise<void> {
  // The WebAssembly keccak the daemon hashes with once started (it is built asynchronously at import).
  await keccakReady;
  const rng = new Rng(20240601);
  const key = ("0x0f" + rng.hex(32).slice(4)) as Hex;
  const signer = WalletSigner.fromPrivateKey(key);
  const account = privateKeyToAccount(key);
  const vault = ("0x" + rng.hex(20).slice(2)) as Hex;
  const mkts = markets(rng);
  const orders = intents(rng);
  const params = (i: number, salt: Rng): BuildOrderParams => ({
    contracts: CONTRACTS,
    market: mkts[i % mkts.length]!,
    intent: orders[i]!,
    wallet: signer.address,
    vault,
    saltSource: rngSaltSource(salt),
    defaultFeeRateBps: 100,
  });

  const signatures = new Array<Hex>(N);
  const builtOrders = new Array<BuiltOrder>(N);
  const fast = async () => {
    const salt = new Rng(1);
    for (let i = 0; i < N; i++) {
      const b = buildOrder(params(i, salt));
      builtOrders[i] = b;
      signatures[i] = (await signer.signBuiltOrder(b)).signature;
    }
  };
  const viem = async () => {
    const salt = new Rng(1);
    for (let i = 0; i < N; i++) {
      const p = prepareOrder(params(i, salt));
      await account.signTypedData(orderTypedData(p.struct, p.domain));
    }
  };
  await fast(); // warm-up: JIT, domain separators, noble's base-point table
  await viem();
  const [fastRate, viemRate] = await compare(N, fast, viem);
  console.log(`BENCH sign_orders_fast ${fastRate.toFixed(0)} ops/s ratio=${(fastRate / viemRate).toFixed(2)}`);
  console.log(`BENCH sign_orders_viem ${viemRate.toFixed(0)} ops/s`);

  let ok = 0;
  const verify = async () => {
    ok = 0;
    for (let i = 0; i < N_VERIFY; i++) {
      const b = builtOrders[i]!;
      if ((await recoverOrderSigner(b.struct, signatures[i]!, b.domain, { cache: null })) === signer.address) ok++;
    }
  };
  const verifyViem = async () => {
    for (let i = 0; i < N_VERIFY; i++) {
      const b = builtOrders[i]!;
      await recoverTypedDataAddress({ ...orderTypedData(b.struct, b.domain), signature: signatures[i]! });
    }
  };
  const [verifyRate, verifyViemRate] = await compare(N_VERIFY, verify, verifyViem);
  if (ok !== N_VERIFY) throw new Error(`only ${ok}/${N_VERIFY} signatures verified`);
  console.log(`BENCH verify_orders ${verifyRate.toFixed(0)} ops/s ratio=${(verifyRate / verifyViemRate).toFixed(2)}`);
  console.log(`BENCH verify_orders_viem ${verifyViemRate.toFixed(0)} ops/s`);

  const cache = new RecoveryCache(2 * N_VERIFY);
  const resend = async () => {
    for (let i = 0; i < N_VERIFY; i++) {
      await recoverOrderSigner(builtOrders[i]!.struct, signatures[i]!, builtOrders[i]!.domain, { cache });
    }
  };
  await resend(); // fills the cache: every later round is a resend
  const [resendRate] = await compare(N_VERIFY, resend, async () => {});
  console.log(`BENCH verify_orders_resend ${resendRate.toFixed(0)} ops/s ratio=${(resendRate / verifyRate).toFixed(2)}`);
}
