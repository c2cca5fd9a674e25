/**
 * The quote controls a config asks for, in the order the cycle applies them (docs/strategies.md,
 * "Quoting controls"):
 *
 *   (none yet)
 *
 * An absent block is an absent control: `buildControls` of a config without `controls:` is [].
 */
import type { ControlsSettings } from "../../../config/controls-section.js";
import type { Micros } from "../../../core/money.js";
import type { QuoteControl } from "./control.js";

export type { ControlResult, QuoteControl } from "./control.js";
export { applyControls } from "./control.js";

/** The parts of the config the controls are built from. */
export interface ControlsConfigView {
  controls?: ControlsSettings | undefined;
  risk: { maxNotionalPerWallet: Micros };
}

export function buildControls(config: ControlsConfigView): QuoteControl[] {
  const out: QuoteControl[] = [];
  void config;
  return out;
}
