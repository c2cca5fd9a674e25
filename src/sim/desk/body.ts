/**
 * Lenient reading of a place body before the strict schema (src/wire/requests.ts placeBody).
 *
 * Spec 4.6 names only the signed order, `maker` and `clientOrderId` in the place body; `side`,
 * `price`, `quantity` and `type` are our additions (docs/spec-gaps.md). A caller that sends only
 * what the spec names must still get a placement result (HTTP 201, rejections included), not a
 * 400 for fields it could not know about. So, before validation:
 *
 * - the signed-order scalars may arrive in either JSON form: uint256 fields as JSON integers,
 *   `feeRateBps` / `side` / `signatureType` as digit strings, `side` also as "BUY" / "SELL";
 * - a `signature` sent next to the order instead of inside it is moved into it; a signature
 *   string that is not hex bytes at all ("", "0x", "garbage") is not EIP-712, so it is diagnosed
 *   like every unrecoverable signature (bad_signature, `recovered: null`, spec 7.3), not as a
 *   malformed body: it is replaced by a one-byte stand-in that recovers to null;
 * - the body enums `side`, `type` and `timeInForce` are read in any case;
 * - missing `side`, `price`, `quantity` and `type` are derived from the signed order: side from
 *   its side code, quantity from the share leg (BUY takerAmount, SELL makerAmount), price as the
 *   0.001-grid price the signed amounts encode (see `impliedPrice`), type `limit`, and `GTD`
 *   when the order carries a non-zero expiration.
 *
 * Fields that ARE present are never changed (they must still agree with the signed amounts), and
 * anything that cannot be normalised is left as it is for the schema to name.
 */
import { formatMicros } from "../../core/money.js";

const UINT_FIELDS = ["salt", "tokenId", "makerAmount", "takerAmount", "expiration"] as const;
const INT_FIELDS = ["feeRateBps", "signatureType"] as const;
const UINT_RE = /^(?:0|[1-9]\d*)$/;
const HEX_BYTES_RE = /^0x(?:[0-9a-fA-F]{2})+$/;
/** Valid hex, never a valid signature: recovers to null. */
const NOT_A_SIGNATURE = "0x00";
const SMALL_INT_RE = /^\d{1,9}$/;
const MICROS = 1_000_000n;
/** The price grid (0.001) in micros. */
const TICK = 1_000n;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

function normaliseOrder(raw: Record<string, unknown>): Record<string, unknown> {
  const o: Record<string, unknown> = { ...raw };
  for (const f of UINT_FIELDS) {
    const v = o[f];
    if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) o[f] = String(v);
  }
  for (const f of INT_FIELDS) {
    const v = o[f];
    if (typeof v === "string" && SMALL_INT_RE.test(v)) o[f] = Number(v);
  }
  const side = o.side;
  if (typeof side === "string") {
    const s = side.trim().toUpperCase();
    if (s === "0" || s === "BUY") o.side = 0;
    else if (s === "1" || s === "SELL") o.side = 1;
  }
  return o;
}

function uintOf(v: unknown): bigint | undefined {
  return typeof v === "string" && UINT_RE.test(v) && v.length <= 78 ? BigInt(v) : undefined;
}

/**
 * The grid price a signed order encodes. BUY: the largest grid price whose CEIL notional is the
 * signed makerAmount; when there is none, the smallest grid price at or above makerAmount/qty
 * (so a floor-rounded makerAmount is diagnosed as order_signed_with_floor_notional and anything
 * else as invalid_amounts by the usual checks). SELL: the smallest grid price whose FLOOR
 * proceeds reach the signed takerAmount.
 */
export function impliedPrice(side: 0 | 1, makerAmount: bigint, takerAmount: bigint): bigint | undefined {
  if (side === 0) {
    const qty = takerAmount;
    if (qty <= 0n) return undefined;
    const down = ((makerAmount * MICROS) / qty / TICK) * TICK;
    if (down > 0n && ceilDiv(down * qty, MICROS) === makerAmount) return down;
    return ceilDiv(ceilDiv(makerAmount * MICROS, qty), TICK) * TICK;
  }
  const qty = makerAmount;
  if (qty <= 0n) return undefined;
  return ceilDiv(ceilDiv(takerAmount * MICROS, qty), TICK) * TICK;
}

/** The body with the lenient forms normalised and the derivable fields filled in. */
export function normalisePlaceBody(raw: unknown): unknown {
  if (!isRecord(raw) || !isRecord(raw.order)) return raw;
  const body: Record<string, unknown> = { ...raw };
  const order = normaliseOrder(raw.order);
  if (order.signature === undefined && typeof body.signature === "string") {
    order.signature = body.signature;
    delete body.signature;
  }
  if (typeof order.signature === "string" && !HEX_BYTES_RE.test(order.signature)) order.signature = NOT_A_SIGNATURE;
  body.order = order;
  if (typeof body.side === "string") body.side = body.side.toUpperCase();
  if (typeof body.type === "string") body.type = body.type.toLowerCase();
  if (typeof body.timeInForce === "string") body.timeInForce = body.timeInForce.toUpperCase();

  const side = order.side;
  if (side !== 0 && side !== 1) return body;
  const makerAmount = uintOf(order.makerAmount);
  const takerAmount = uintOf(order.takerAmount);
  if (body.side === undefined) body.side = side === 0 ? "BUY" : "SELL";
  if (makerAmount !== undefined && takerAmount !== undefined) {
    const qty = side === 0 ? takerAmount : makerAmount;
    if (body.quantity === undefined) body.quantity = formatMicros(qty);
    if (body.price === undefined) {
      const p = impliedPrice(side, makerAmount, takerAmount);
      if (p !== undefined) body.price = formatMicros(p);
    }
  }
  if (body.type === undefined) {
    body.type = "limit";
    const exp = uintOf(order.expiration);
    if (body.timeInForce === undefined && exp !== undefined && exp > 0n) body.timeInForce = "GTD";
  }
  return body;
}
