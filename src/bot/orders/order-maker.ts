/**
 * From a desired quote to an order ready to send: a clientOrderId, the built struct and its hash,
 * the signature and the place body. A GTC order may come pre-signed from the cache (presign.ts);
 * otherwise it is built and signed now. Nothing here sends or registers anything: the executor
 * registers each order in the tracker right before its request leaves.
 */
import type { Clock } from "../../core/clock.js";
import type { BuiltOrder, Hex, OrderSigner, PlaceOrderBody, PlatformContracts, SaltSource, SigningMarket } from "../../signing/index.js";
import { buildOrder, placeOrderBody, preparePlaceBody } from "../../signing/index.js";
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

/** What every order of the wallet is signed for, known once start-up resolved it. */
export interface SigningAccount {
  /** The wallet's vault (the order's maker). */
  vault: string;
  contracts: PlatformContracts;
  /** The platform's default taker fee, for markets without their own. */
  defaultFeeRateBps: number | null;
}

export interface OrderMakerDeps {
  signer: OrderSigner;
  ids: ClientOrderIds;
  clock: Clock;
  saltSource: SaltSource;
  /** GTD lifetime of every order; undefined: GTC (and only GTC orders are pre-signed). */
  orderExpirySec?: number | undefined;
  presign?: PresignCache | undefined;
}

export class OrderMaker {
  private account: SigningAccount | undefined;

  constructor(private readonly d: OrderMakerDeps) {}

  /** Start-up resolved the vault and read the platform's contracts: orders can be made from now on. */
  useAccount(account: SigningAccount): void {
    this.account = account;
  }

  /** Orders can be made (the account is known). */
  get ready(): boolean {
    return this.account !== undefined;
  }

  /** The order for `q`, pre-signed when the cache has it, else built and signed now. */
  make(q: DesiredQuote, symbol: string, signing: SigningMarket): Made {
    const account = this.account;
    if (account === undefined) return { ok: false, clientOrderId: this.d.ids.next(), error: new Error("no signing account yet (start-up has not resolved the vault)") };
    const cached = this.presigned(q, symbol, account.vault);
    if (cached !== undefined) return { ok: true, order: cached };
    const clientOrderId = this.d.ids.next();
    try {
      const expirySec = this.d.orderExpirySec;
      const expiration = expirySec !== undefined ? BigInt(Math.floor(this.d.clock.now() / 1000) + expirySec) : undefined;
      const { built, signature } = this.sign(q, signing, account, expiration);
      return { ok: true, order: { quote: q, clientOrderId, built, body: placeOrderBody(built, { signature, clientOrderId }) } };
    } catch (error) {
      return { ok: false, clientOrderId, error };
    }
  }

  /** Sign one order the pre-sign cache wants; false when there was nothing (left) to do. */
  presignNext(signingOf: (symbol: string) => SigningMarket | undefined): boolean {
    const cache = this.d.presign;
    const account = this.account;
    if (cache === undefined || account === undefined || this.d.orderExpirySec !== undefined) return false;
    const k = cache.nextWanted();
    if (k === undefined) return false;
    const signing = signingOf(k.marketId);
    if (signing === undefined) return true;
    try {
      const signed = this.sign(k, signing, account, undefined);
      preparePlaceBody(signed.built, signed.signature);
      cache.put(k, signed);
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

  private sign(q: Omit<DesiredQuote, "level" | "tag" | "reducesInventory">, signing: SigningMarket, account: SigningAccount, expiration: bigint | undefined): { built: BuiltOrder; signature: Hex } {
    const built = buildOrder({
      contracts: account.contracts,
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
      vault: account.vault,
      saltSource: this.d.saltSource,
      defaultFeeRateBps: account.defaultFeeRateBps,
    });
    return { built, signature: this.d.signer.signBuiltOrderNow(built).signature };
  }
}
