/**
 * The simulator's full route table, shared by the HTTP server and the in-process transport.
 * The /sim control routes come first only for readability: precedence is by pattern
 * specificity (src/sim/http/router.ts), never by order.
 */
import type { RouteDef } from "../types.js";
import { controlRoutes } from "./control.js";
import { eventRoutes } from "./events.js";
import { marketRoutes } from "./markets.js";
import { orderRoutes } from "./orders.js";
import { platformRoutes } from "./platform.js";
import { portfolioRoutes } from "./portfolio.js";
import { vaultOpControlRoutes, vaultOpRoutes } from "./vault-ops.js";
import { withdrawalControlRoutes, withdrawalRoutes } from "./withdrawals.js";

export { controlRoutes } from "./control.js";

export function allRoutes(): RouteDef[] {
  return [...controlRoutes, ...platformRoutes, ...marketRoutes, ...eventRoutes, ...orderRoutes, ...portfolioRoutes, ...withdrawalRoutes, ...withdrawalControlRoutes, ...vaultOpRoutes, ...vaultOpControlRoutes];
}
