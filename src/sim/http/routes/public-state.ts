/**
 * Platform state the public platform routes report and operators change: the freeze flag
 * (`GET /api/platform/status`), notices (`/api/platform/notices`) and readiness checks
 * (`GET /ready`). Kept per Simulator here (the Simulator class belongs to the order desk) so
 * control routes can flip them and the order desk can read `frozen`.
 */
import type { Simulator } from "../../simulator.js";
import { onePer } from "../../../core/memo.js";

export type NoticeSeverity = "info" | "warning" | "critical";

export interface SimNotice {
  id: string;
  severity: NoticeSeverity;
  title: string;
  message: string;
  startsAtMs: number;
  endsAtMs: number | null;
}

export interface PublicPlatformState {
  frozen: boolean;
  reason: string | null;
  /** When the freeze flag last changed (the simulator's creation time until then). */
  updatedAtMs: number;
  notices: SimNotice[];
  /** Named readiness checks; `/ready` answers 503 while any is false. */
  readyChecks: Record<string, boolean>;
}

const states = onePer((sim: Simulator): PublicPlatformState => ({ frozen: false, reason: null, updatedAtMs: sim.platform.startMs, notices: [], readyChecks: { catalogue: true, engine: true } }));

export function platformState(sim: Simulator): PublicPlatformState {
  return states(sim);
}

/** Freeze or unfreeze the platform (while frozen the order desk should refuse new orders). */
export function setFrozen(sim: Simulator, frozen: boolean, reason: string | null = null): void {
  const s = platformState(sim);
  s.frozen = frozen;
  s.reason = frozen ? reason : null;
  s.updatedAtMs = sim.clock.now();
}

/** Add or replace (same id) a notice. */
export function putNotice(sim: Simulator, notice: SimNotice): void {
  const s = platformState(sim);
  s.notices = [...s.notices.filter((n) => n.id !== notice.id), notice];
}

export function removeNotice(sim: Simulator, id: string): boolean {
  const s = platformState(sim);
  const before = s.notices.length;
  s.notices = s.notices.filter((n) => n.id !== id);
  return s.notices.length !== before;
}

/** Notices in force at `nowMs` (started, not ended), in insertion order. */
export function activeNotices(sim: Simulator, nowMs: number): SimNotice[] {
  return platformState(sim).notices.filter((n) => n.startsAtMs <= nowMs && (n.endsAtMs === null || nowMs < n.endsAtMs));
}

export function setReadyCheck(sim: Simulator, name: string, ok: boolean): void {
  platformState(sim).readyChecks[name] = ok;
}
