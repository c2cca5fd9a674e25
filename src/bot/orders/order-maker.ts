/**
 * From a desired quote to an order ready to send: a clientOrderId, the built struct and its hash,
 * the signature and the place body. A GTC order may come pre-signed from the cache (presign.ts);
 * otherwise it is built and signed now. Nothing here sends or registers anything: the executor
 * registers each order in the tracker right before its request leaves.
 */
import type { Clock } from "../../core/clock.js";
import type { BuiltOrder, Hex, PlaceOrderBody, PlatformContracts, SaltSource, SigningMarket, WalletSigner } from "../../signing/index.js";
import { buildOrder, placeOrderBody } from "../../signing/index.js";
import type { DesiredQuote } from "../quote/quotes.js";
import type { ClientOrderIds } from "./ids.js";
import type { PresignCache } from "./presign.js";

export interface Pending {
  quote: DesiredQuote;
  clientOrderId: string;
  built: BuiltOrder;
  body: PlaceOrderBody;
}

export type Made = { ok: true; order: Pending } | { ok: false; clientOrderId: string; error: unknown };

export interface OrderMakerDeps {
  signer: WalletSigner;
  ids: ClientOrderIds;
  clock: Clock;
  saltSource: SaltSource;
  contracts: () => PlatformContracts;
  defaultFeeRateBps: () => number | null;
  /** The vault (resolved at start-up). */
  vault: () => string | undefined;
  /** GTD lifetime of every order; undefined: GTC (and only GTC orders are pre-signed). */
  orderExpirySec?: number | undefined;
  presign?: PresignCache | undefined;
}

export class OrderMaker {
  constructor(private readonly d: OrderMakerDeps) {}

  /** The order for `q`, pre-signed when the cache has it, else built and signed now. */
  make(q: DesiredQuote, symbol: string, signing: SigningMarket, vault: string): Made {
    const cached = this.presigned(q, symbol, vault);
    if (cached !== undefined) return { ok: true, order: cached };
    const clientOrderId = this.d.ids.next();
    try {
      const expirySec = this.d.orderExpirySec;
      const expiration = expirySec !== undefined ? BigInt(Math.floor(this.d.clock.now() / 1000) + expirySec) : undefined;
      const { built, signature } = this.sign(q, signing, vault, expiration);
      return { ok: true, order: { quote: q, clientOrderId, built, body: placeOrderBody(built, { signature, clientOrderId }) } };
    } catch (error) {
      return { ok: false, clientOrderId, error };
    }
  }

  /** Sign one order the pre-sign cache wants; false when there was nothing (left) to do. */
  presignNext(signingOf: (symbol: string) => SigningMarket | undefined): boolean {
    const cache = this.d.presign;
    const vault = this.d.vault();
    if (cache === undefined || vault === undefined || this.d.orderExpirySec !== undefined) return false;
    const k = cache.nextWanted();
    if (k === undefined) return false;
    const signing = signingOf(k.marketId);
    if (signing === undefined) return true;
    try {
      cache.put(k, this.sign(k, signing, vault, undefined));
    } catch {
      // Not signable (fee, outcome): the hot path will report it if it is ever wanted.
    }
    return true;
  }

  private presigned(q: DesiredQuote, symbol: string, vault: string): Pending | undefined {
    if (this.d.orderExpirySec !== undefined || this.d.presign === undefined) return undefined;
    const cached = this.d.presign.take({ marketId: symbol, outcome: q.outcome, side: q.side, price: q.price, size: q.size, postOnly: q.postOnly });
    if (cached === undefined || cached.built.struct.maker.toLowerCase() !== vault.toLowerCase()) return undefined;
    const clientOrderId = this.d.ids.next();
    return { quote: q, clientOrderId, built: cached.built, body: placeOrderBody(cached.built, { signature: cached.signature, clientOrderId }) };
  }

  private sign(q: Omit<DesiredQuote, "level" | "tag" | "reducesInventory">, signing: SigningMarket, vault: string, expiration: bigint | undefined): { built: BuiltOrder; signature: Hex } {
    const built = buildOrder({
      contracts: this.d.contracts(),
      market: signing,
      intent: {
        outcome: q.outcome,
        side: q.side,
        price: q.price,
        quantity: q.size,
        postOnly: q.postOnly,
        ...(expiration !== undefined ? { timeInForce: "GTD" as const, expiration } : {}),
      },
      wallet: this.d.signer.address,
      vault,
      saltSource: this.d.saltSource,
      defaultFeeRateBps: this.d.defaultFeeRateBps(),
    });
    return { built, signature: this.d.signer.signBuiltOrderNow(built).signature };
  }
}
