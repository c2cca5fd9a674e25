/**
 * `mm cancel-all --config FILE [--wallet NAME] [--market SLUG] [--yes]`: end every open order of
 * the config's wallets through the client directly, for when the daemon is dead.
 *
 * Per wallet (spec 4.6, and the client's retry rules in src/api/cancels.ts):
 *   1. walk the open orders (the cursor, every page): what there is to end;
 *   2. one `POST /api/orders/cancel-all` (never repeated: a lost answer is not resent);
 *   3. every listed id without a final answer (pending, unanswered, not named, the cancel-all
 *      refused or lost) is cancelled with single cancels / cancel-batches of exactly those ids,
 *      repeated after each Retry-After (`cancelUntilFinal`), until `shutdown.cancelDeadlineSec`;
 *   4. re-read to confirm: walk again (and cancel what is still listed while time remains); an
 *      order whose end no cancel answer confirmed is read by id.
 * The report never says more than the platform confirmed: "cancelled" (a cancel answer said so,
 * or the order reads CANCELLED after our cancel), "already gone" (filled, expired, not found:
 * ended before our cancel could), "UNKNOWN" (still listed, or neither an answer nor a read
 * settles it). Exit 0 when nothing is unknown, 1 otherwise, 2 on a usage or config error.
 *
 * Before cancelling it asks (y/N) unless --yes; with stdin not a terminal, --yes is required.
 */
import { createInterface } from "node:readline/promises";
import { isApiError, type WalletClient } from "../api/index.js";
import type { Clock } from "../core/clock.js";
import type { OrderRecord } from "../wire/index.js";
import { walkOpenOrders, ordersTable } from "./orders.js";
import { parseFlags, stringFlag, usageError, type FlagSpecs } from "./args.js";
import { describeError, openPlatform, processIo, table, type CommandIo, type PlatformDeps } from "./platform-access.js";

export const USAGE = `Usage: mm cancel-all --config FILE [--wallet NAME] [--market SLUG] [--yes] [--json]

Cancel every open order of the config's wallets through the client, without the daemon (stop the
daemon first: a running one places again). Lists what is open, asks, then per wallet: one
cancel-all, cancels of exactly the ids still pending after each Retry-After, and a re-read to
confirm, until shutdown.cancelDeadlineSec.

Options:
  --config FILE    daemon config (mode: live): platform URL, API key, wallets, rate tier
  --wallet NAME    only this wallet (its name in the config)
  --market SLUG    only this market (symbol)
  --yes            do not ask (required when stdin is not a terminal)
  --json           the report as one JSON document

Reports per wallet what was confirmed cancelled, what was already gone, and what is UNKNOWN.
Exit 0 when nothing is unknown, 1 otherwise, 2 on a usage or config error (or not confirmed).
`;

export interface CancelAllIo extends CommandIo {
  /** stdin is a terminal (a question can be asked). */
  isTTY: boolean;
  /** Ask a yes/no question; true only for yes. */
  confirm(question: string): Promise<boolean>;
}

const processCancelIo: CancelAllIo = {
  ...processIo,
  isTTY: process.stdin.isTTY === true,
  confirm: async (question) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return /^y(es)?$/i.test((await rl.question(question)).trim());
    } finally {
      rl.close();
    }
  },
};

export interface EndedOrder {
  orderId: string;
  /** How we know (or why not). */
  why: string;
}

export interface WalletCancelReport {
  wallet: string;
  address: string;
  /** Open orders listed before cancelling (undefined: the walk failed). */
  listed: number | undefined;
  cancelled: EndedOrder[];
  alreadyGone: EndedOrder[];
  unknown: EndedOrder[];
  /** The last open-orders walk completed (false: what it would have listed is not known). */
  finalWalkOk: boolean;
  /** What went wrong on the way (a refused cancel-all, a failed walk), for the operator. */
  notes: string[];
}

/** The last cancel answer per id. */
type Answer = { kind: "cancelled" } | { kind: "filled" } | { kind: "refused"; code: string } | { kind: "pending"; why: string };

const MAX_ROUNDS = 3;

function isAuth(e: unknown): boolean {
  return isApiError(e) && e.handling === "auth";
}

/** Cancel with `cancelUntilFinal` (single cancel / cancel-batch of exactly these ids, after each Retry-After). */
async function cancelIds(api: WalletClient, ids: readonly string[], deadlineAtMs: number, clock: Clock, answers: Map<string, Answer>, notes: string[]): Promise<void> {
  if (ids.length === 0) return;
  try {
    const r = await api.orders.cancelUntilFinal(ids, { deadlineMs: Math.max(0, deadlineAtMs - clock.now()) });
    for (const f of r.final) {
      if (f.status === "CANCELLED") answers.set(f.orderId, { kind: "cancelled" });
      else if (f.status === "FILLED") answers.set(f.orderId, { kind: "filled" });
      else answers.set(f.orderId, { kind: "refused", code: f.code ?? "refused" });
    }
    const why = r.lastError === undefined ? "cancel still pending at the deadline" : `cancel not answered: ${describeError(r.lastError)}`;
    for (const id of r.pending) answers.set(id, { kind: "pending", why });
  } catch (e) {
    notes.push(`cancels failed: ${describeError(e)}`);
    for (const id of ids) if (answers.get(id)?.kind !== "cancelled") answers.set(id, { kind: "pending", why: `cancel failed: ${describeError(e)}` });
    if (isAuth(e)) throw e;
  }
}

/** The one cancel-all of the wallet (never repeated); its answer per id into `answers`. */
async function sendCancelAll(api: WalletClient, market: string | undefined, answers: Map<string, Answer>, notes: string[]): Promise<void> {
  try {
    const r = await api.orders.cancelAll(market === undefined ? {} : { marketId: market });
    if (r.status === "answered") {
      for (const id of r.cancelled) answers.set(id, { kind: "cancelled" });
      for (const p of r.pending) answers.set(p.orderId, { kind: "pending", why: `cancel ${p.code}` });
      for (const f of r.failed) answers.set(f.orderId, { kind: "refused", code: f.code });
    } else if (r.status === "rejected") {
      notes.push(`cancel-all refused: ${r.code}: ${r.message}`);
    } else {
      notes.push(`cancel-all outcome unknown (not resent): ${describeError(r.lastError)}`);
    }
  } catch (e) {
    notes.push(`cancel-all failed: ${describeError(e)}`);
    if (isAuth(e)) throw e;
  }
}

/** An order no cancel answer settled and no walk lists: read it by id. */
async function readEnd(api: WalletClient, id: string, answer: Answer | undefined): Promise<{ bucket: "cancelled" | "alreadyGone" | "unknown"; why: string }> {
  try {
    const o = (await api.orders.get(id)).data;
    if (o.status === "CANCELLED") {
      // Refused by our cancel yet CANCELLED: it ended before (someone else's cancel).
      return answer?.kind === "refused" ? { bucket: "alreadyGone", why: `cancelled before ours (${answer.code})` } : { bucket: "cancelled", why: "read CANCELLED after our cancel" };
    }
    if (o.status === "FILLED" || o.status === "EXPIRED" || o.status === "REJECTED") return { bucket: "alreadyGone", why: o.status.toLowerCase() };
    return { bucket: "unknown", why: `reads ${o.status} by id` };
  } catch (e) {
    if (isApiError(e) && e.code === "order_not_found") return { bucket: "alreadyGone", why: "not found" };
    return { bucket: "unknown", why: `not confirmed ended: read failed: ${describeError(e)}` };
  }
}

/**
 * Steps 2-4 of the header for one wallet whose open orders `before` were listed (undefined: that
 * walk failed; the cancel-all still goes).
 */
export async function cancelWallet(
  w: { name: string; address: string },
  api: WalletClient,
  o: { market: string | undefined; before: readonly OrderRecord[] | undefined; beforeError?: string; deadlineAtMs: number; clock: Clock; pageSize?: number | undefined },
): Promise<WalletCancelReport> {
  const notes: string[] = o.beforeError === undefined ? [] : [`open-orders walk failed: ${o.beforeError}`];
  const report: WalletCancelReport = { wallet: w.name, address: w.address, listed: o.before?.length, cancelled: [], alreadyGone: [], unknown: [], finalWalkOk: false, notes };
  if (o.before !== undefined && o.before.length === 0) return { ...report, finalWalkOk: true };
  const ids = new Set((o.before ?? []).map((x) => x.id));
  const answers = new Map<string, Answer>();
  let open: Set<string> | undefined;
  try {
    await sendCancelAll(api, o.market, answers, notes);
    for (const id of answers.keys()) ids.add(id);
    await cancelIds(api, [...ids].filter((id) => answers.get(id)?.kind !== "cancelled" && answers.get(id)?.kind !== "filled" && answers.get(id)?.kind !== "refused"), o.deadlineAtMs, o.clock, answers, notes);
    for (let round = 0; round < MAX_ROUNDS; round++) {
      try {
        open = new Set((await walkOpenOrders(api, o.market, o.pageSize)).map((x) => x.id));
      } catch (e) {
        notes.push(`confirming walk failed: ${describeError(e)}`);
        open = undefined;
        break;
      }
      for (const id of open) ids.add(id);
      const still = [...open];
      if (still.length === 0 || o.clock.now() >= o.deadlineAtMs) break;
      await cancelIds(api, still, o.deadlineAtMs, o.clock, answers, notes);
    }
  } catch (e) {
    // A key refusal: nothing more can be asked. What was answered stands; the rest is unknown.
    if (!isAuth(e)) throw e;
    open = undefined;
  }
  report.finalWalkOk = open !== undefined;
  for (const id of [...ids].sort()) {
    const a = answers.get(id);
    if (open?.has(id) === true) {
      report.unknown.push({ orderId: id, why: a?.kind === "pending" ? `still listed open (${a.why})` : "still listed open" });
    } else if (a?.kind === "cancelled") {
      report.cancelled.push({ orderId: id, why: "cancel answered CANCELLED" });
    } else if (a?.kind === "filled") {
      report.alreadyGone.push({ orderId: id, why: "filled" });
    } else {
      const r = await readEnd(api, id, a);
      report[r.bucket].push({ orderId: id, why: a?.kind === "pending" && r.bucket === "unknown" ? `${r.why}; ${a.why}` : r.why });
    }
  }
  return report;
}

function reportTable(reports: readonly WalletCancelReport[]): string {
  const rows = reports.map((r) => [r.wallet, r.address, r.listed === undefined ? "?" : r.listed, r.cancelled.length, r.alreadyGone.length, r.unknown.length]);
  return table(["wallet", "address", "open before", "cancelled", "already gone", "UNKNOWN"], rows);
}

function describeReports(reports: readonly WalletCancelReport[]): string {
  const lines = [reportTable(reports)];
  for (const r of reports) {
    for (const n of r.notes) lines.push(`${r.wallet}: ${n}`);
    for (const g of r.alreadyGone) lines.push(`${r.wallet}: ${g.orderId} already gone (${g.why})`);
    for (const u of r.unknown) lines.push(`${r.wallet}: ${u.orderId} UNKNOWN: ${u.why}`);
  }
  const unknown = reports.reduce((n, r) => n + r.unknown.length, 0);
  for (const r of reports) if (!r.finalWalkOk) lines.push(`${r.wallet}: the last open-orders walk FAILED: orders not named above may still rest on the platform`);
  const clean = unknown === 0 && reports.every((r) => r.finalWalkOk);
  lines.push(clean ? "every order confirmed ended" : unknown === 0 ? "NOT confirmed: a wallet's open orders could not be read at the end" : `${unknown} order${unknown === 1 ? "" : "s"} NOT confirmed ended: they may still rest on the platform (run mm orders, then mm cancel-all again)`);
  return lines.join("\n") + "\n";
}

const FLAGS: FlagSpecs = { config: { type: "string" }, wallet: { type: "string" }, market: { type: "string" }, yes: { type: "boolean" }, json: { type: "boolean" } };

export async function cancelAllCommand(argv: string[], io: CancelAllIo = processCancelIo, deps: PlatformDeps = {}): Promise<number> {
  const parsed = parseFlags(argv, FLAGS);
  if (typeof parsed === "string") {
    io.stderr(usageError("cancel-all", parsed, USAGE));
    return 2;
  }
  if (parsed.help) {
    io.stdout(USAGE);
    return 0;
  }
  const flags = {
    config: stringFlag(parsed, "config"),
    wallet: stringFlag(parsed, "wallet"),
    market: stringFlag(parsed, "market"),
    yes: parsed.values.get("yes") === true,
    json: parsed.values.get("json") === true,
  };
  if (flags.config === undefined) {
    io.stderr(usageError("cancel-all", "--config FILE is required", USAGE));
    return 2;
  }
  if (!flags.yes && !io.isTTY) {
    io.stderr("mm cancel-all: stdin is not a terminal, so there is no one to ask: give --yes to cancel without asking\n");
    return 2;
  }
  const p = openPlatform(flags.config, flags.wallet, deps, (t) => io.stderr(`mm cancel-all: ${t}`));
  if (p === 2) return 2;
  try {
    const market = flags.market;
    const before = [];
    for (const w of p.wallets) {
      try {
        before.push({ w, orders: await walkOpenOrders(p.client.forWallet(w.address), market, p.pageSize) as readonly OrderRecord[] | undefined, error: undefined as string | undefined });
      } catch (e) {
        before.push({ w, orders: undefined, error: describeError(e) });
      }
    }
    const listed = before.reduce((n, b) => n + (b.orders?.length ?? 0), 0);
    const anyFailed = before.some((b) => b.orders === undefined);
    if (listed === 0 && !anyFailed) {
      const none = p.wallets.map((w): WalletCancelReport => ({ wallet: w.name, address: w.address, listed: 0, cancelled: [], alreadyGone: [], unknown: [], finalWalkOk: true, notes: [] }));
      io.stdout(
        flags.json
          ? JSON.stringify(none, null, 2) + "\n"
          : `nothing to cancel: no open orders${market === undefined ? "" : ` on ${market}`} for ${p.wallets.map((w) => w.name).join(", ")}\n`,
      );
      return 0;
    }
    if (flags.json !== true) {
      io.stdout(`${ordersTable(before.filter((b) => b.orders !== undefined).map((b) => ({ wallet: b.w.name, orders: b.orders! })))}\n`);
      for (const b of before) if (b.error !== undefined) io.stdout(`${b.w.name}: open orders NOT read (${b.error}); its cancel-all is sent anyway\n`);
    }
    if (!flags.yes) {
      const scope = `${p.wallets.map((w) => w.name).join(", ")}${market === undefined ? "" : ` on ${market}`}`;
      if (!(await io.confirm(`Cancel every open order of ${scope} (${listed} listed)? [y/N] `))) {
        io.stderr("mm cancel-all: not confirmed; nothing cancelled\n");
        return 2;
      }
    }
    const deadlineAtMs = p.clock.now() + p.config.shutdown.cancelDeadlineSec * 1000;
    const reports = await Promise.all(
      before.map((b) =>
        cancelWallet(b.w, p.client.forWallet(b.w.address), { market, before: b.orders, ...(b.error === undefined ? {} : { beforeError: b.error }), deadlineAtMs, clock: p.clock, pageSize: p.pageSize }),
      ),
    );
    io.stdout(flags.json ? JSON.stringify(reports, null, 2) + "\n" : describeReports(reports));
    return reports.some((r) => r.unknown.length > 0 || !r.finalWalkOk) ? 1 : 0;
  } finally {
    p.close();
  }
}

export default cancelAllCommand;
