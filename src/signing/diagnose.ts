/**
 * Explaining a `bad_signature` rejection (spec 5.5, 7.3): the platform returns the 11 fields it
 * verified (`details.platform_canonical_struct`), the address the signature recovered to
 * (`details.recovered`, null when not valid EIP-712) and the wallet it expected
 * (`details.expected_signer`). Diffing that struct against what we signed usually names the
 * culprit at once; the spec says the most common one is `feeRateBps` != the market's feeTakerBps.
 */
import { ADDRESS_FIELDS, ORDER_FIELDS, type OrderField } from "./types.js";

export interface FieldDifference {
  field: OrderField;
  /** Our value, normalized (decimal for numbers). */
  ours: string;
  /** The platform's value, normalized; "(missing)" when the field was absent. */
  platform: string;
}

export interface BadSignatureDiagnosis {
  differences: FieldDifference[];
  hints: string[];
  recovered: string | null | undefined;
  expectedSigner: string | undefined;
  /** Multi-line human-readable report. */
  text: string;
}

export interface DiagnoseContext {
  /** The market's current feeTakerBps, when known, to say which side is stale. */
  marketFeeTakerBps?: number | null;
}

/** The struct we signed, in any of our forms: OrderStruct (bigints), the wire form, or a plain record. */
export type OrderLike = { readonly [K in OrderField]?: unknown };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function stringify(value: unknown): string {
  if (typeof value === "bigint") return value.toString();
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}

type Normalized = { kind: "address" | "int" | "raw"; text: string; cmp: string };

function normalize(field: OrderField, value: unknown): Normalized | undefined {
  if (value === undefined || value === null) return undefined;
  if (ADDRESS_FIELDS.has(field)) {
    const text = typeof value === "string" ? value : stringify(value);
    return { kind: "address", text, cmp: text.toLowerCase() };
  }
  try {
    let n: bigint | undefined;
    if (typeof value === "bigint") n = value;
    else if (typeof value === "number" && Number.isInteger(value)) n = BigInt(value);
    else if (typeof value === "string" && /^(?:\d+|0x[0-9a-fA-F]+)$/.test(value.trim())) n = BigInt(value.trim());
    if (n !== undefined) return { kind: "int", text: n.toString(), cmp: n.toString() };
  } catch {
    // fall through to a raw comparison
  }
  const text = typeof value === "string" ? value : stringify(value);
  return { kind: "raw", text, cmp: text };
}

/** Fields where our struct and the platform's disagree (addresses case-insensitive, numbers as integers). */
export function diffOrderStructs(ours: OrderLike, platform: unknown): FieldDifference[] {
  const theirs = isRecord(platform) ? platform : {};
  const out: FieldDifference[] = [];
  for (const field of ORDER_FIELDS) {
    const a = normalize(field, ours[field]);
    const b = normalize(field, theirs[field]);
    if (a === undefined && b === undefined) continue;
    if (a !== undefined && b !== undefined && a.cmp === b.cmp) continue;
    out.push({ field, ours: a?.text ?? "(missing)", platform: b?.text ?? "(missing)" });
  }
  return out;
}

function hintsFor(diffs: FieldDifference[], ctx: DiagnoseContext): string[] {
  const hints: string[] = [];
  for (const d of diffs) {
    switch (d.field) {
      case "feeRateBps": {
        let h =
          `feeRateBps differs (we signed ${d.ours}, the platform verified ${d.platform}): feeRateBps must be the ` +
          `market's feeTakerBps verbatim (null inherits the platform default). Refresh the market row and re-sign.`;
        if (ctx.marketFeeTakerBps !== undefined) {
          h += ` The market row we hold says feeTakerBps=${ctx.marketFeeTakerBps ?? "null"}.`;
        }
        hints.push(h);
        break;
      }
      case "maker":
        hints.push(
          `maker differs (we signed ${d.ours}, the platform expects ${d.platform}): maker must be the signing wallet's ` +
            `vault (vaultAddress of the vault-info endpoint). The local vault cache may be stale or the vault not yet deployed.`,
        );
        break;
      case "signer":
        hints.push(
          `signer differs (we signed ${d.ours}, the platform expects ${d.platform}): signer must be the authenticated ` +
            `wallet (X-User-Wallet, or the partner's associated wallet). The order was signed by another wallet than ` +
            `the one the request authenticated as.`,
        );
        break;
      case "signatureType":
        hints.push(`signatureType must be 1 (VAULT); we signed ${d.ours}.`);
        break;
      case "makerAmount":
      case "takerAmount":
        hints.push(
          `${d.field} differs: BUY makerAmount is ceil(price * qty / 1e6), SELL makerAmount is the exact quantity; ` +
            `check the price/quantity of the body against the signed amounts.`,
        );
        break;
      default:
        break;
    }
  }
  return hints;
}

/** Diagnose a bad_signature rejection from its `details` object and the struct we signed. */
export function diagnoseBadSignature(ours: OrderLike, details: unknown, ctx: DiagnoseContext = {}): BadSignatureDiagnosis {
  const d = isRecord(details) ? details : {};
  const canonical = d["platform_canonical_struct"];
  const recoveredRaw = d["recovered"];
  const recovered = typeof recoveredRaw === "string" ? recoveredRaw : recoveredRaw === null ? null : undefined;
  const expectedRaw = d["expected_signer"];
  const expectedSigner = typeof expectedRaw === "string" ? expectedRaw : undefined;

  const lines: string[] = [];
  let differences: FieldDifference[] = [];
  const hints: string[] = [];
  if (!isRecord(canonical)) {
    lines.push("bad_signature: the rejection carries no platform_canonical_struct to compare with");
  } else {
    differences = diffOrderStructs(ours, canonical);
    if (differences.length === 0) {
      lines.push("bad_signature: the platform verified exactly the 11 fields we signed");
    } else {
      const n = differences.length;
      lines.push(`bad_signature: ${n} field${n === 1 ? "" : "s"} differ between what we signed and what the platform verified`);
      for (const diff of differences) lines.push(`  ${diff.field}: ours=${diff.ours} platform=${diff.platform}`);
    }
    hints.push(...hintsFor(differences, ctx));
  }
  if (recovered !== undefined || expectedSigner !== undefined) {
    lines.push(`  recovered=${recovered ?? "null"} expected_signer=${expectedSigner ?? "(not given)"}`);
  }
  if (recovered === null) {
    hints.push("The signature is not valid EIP-712 at all (length or format, v not 27/28, or a non-canonical high s).");
  } else if (differences.length === 0 && isRecord(canonical)) {
    const ourSigner = typeof ours.signer === "string" ? ours.signer.toLowerCase() : undefined;
    if (recovered !== undefined && ourSigner !== undefined && recovered.toLowerCase() !== ourSigner) {
      hints.push(
        `Same fields, but the signature recovers to ${recovered}, not our signer: the digest differs, so check the ` +
          `domain (chainId, name, version, and the verifying contract: binary vs neg-risk exchange) or the key used.`,
      );
    } else if (recovered !== undefined && expectedSigner !== undefined && recovered.toLowerCase() !== expectedSigner.toLowerCase()) {
      hints.push(
        `The signature recovers to our signer ${recovered} but the platform expected ${expectedSigner}: the request ` +
          `authenticated as another wallet (X-User-Wallet) than the one that signed.`,
      );
    } else {
      hints.push(
        "The struct matches, so the domain likely differs: chainId, name/version, or the verifying contract " +
          "(neg-risk markets are verified by the neg-risk exchange, others by the binary exchange).",
      );
    }
  }
  for (const h of hints) lines.push(`hint: ${h}`);
  return { differences, hints, recovered, expectedSigner, text: lines.join("\n") };
}
