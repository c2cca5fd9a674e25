/**
 * The simulator's full route table (src/sim/http/routes/index.ts): every route module's routes
 * exactly once, a table the Router accepts (no two routes of one method and shape), the /sim
 * controls all public, a fresh array per call, and a few paths resolved by specificity rather
 * than by their place in the table.
 */
import { describe, expect, it } from "vitest";
import { Router } from "../../../../src/sim/http/router.js";
import { controlRoutes } from "../../../../src/sim/http/routes/control.js";
import { eventRoutes } from "../../../../src/sim/http/routes/events.js";
import { allRoutes, controlRoutes as reexported } from "../../../../src/sim/http/routes/index.js";
import { marketRoutes } from "../../../../src/sim/http/routes/markets.js";
import { orderRoutes } from "../../../../src/sim/http/routes/orders.js";
import { platformRoutes } from "../../../../src/sim/http/routes/platform.js";
import { portfolioRoutes } from "../../../../src/sim/http/routes/portfolio.js";
import { vaultOpControlRoutes, vaultOpRoutes } from "../../../../src/sim/http/routes/vault-ops.js";
import { withdrawalControlRoutes, withdrawalRoutes } from "../../../../src/sim/http/routes/withdrawals.js";

const MODULES = {
  controlRoutes,
  platformRoutes,
  marketRoutes,
  eventRoutes,
  orderRoutes,
  portfolioRoutes,
  withdrawalRoutes,
  withdrawalControlRoutes,
  vaultOpRoutes,
  vaultOpControlRoutes,
};

describe("allRoutes", () => {
  it("holds every route of every module, each once", () => {
    const all = allRoutes();
    const expected = Object.values(MODULES).flat();
    expect(all).toHaveLength(expected.length);
    for (const [name, routes] of Object.entries(MODULES)) {
      for (const r of routes) expect(all.filter((x) => x === r), `${name}: ${r.method} ${r.pattern}`).toHaveLength(1);
    }
  });

  it("is a table the Router accepts: no two routes share a method and a shape", () => {
    const router = new Router(allRoutes());
    expect(router.routes()).toHaveLength(allRoutes().length);
  });

  it("gives the /sim controls no auth, and every other route under /api, /health or /ready", () => {
    for (const r of allRoutes()) {
      if (r.pattern.startsWith("/sim/") || r.pattern === "/sim") expect(r.auth, `${r.method} ${r.pattern}`).toBe("public");
      else expect(r.pattern, r.pattern).toMatch(/^\/(api\/|health$|ready$)/);
    }
  });

  it("is a new array each call, so a caller may add routes without touching the shared table", () => {
    const a = allRoutes();
    a.push({ method: "GET", pattern: "/extra", auth: "public", handler: () => ({ status: 200, body: null }) });
    expect(allRoutes()).toHaveLength(a.length - 1);
  });

  it("re-exports the control routes", () => {
    expect(reexported).toBe(controlRoutes);
  });

  it("resolves literal segments before parameters, whatever the order of the table", () => {
    const router = new Router(allRoutes());
    const hit = (method: string, path: string) => {
      const m = router.match(method, path);
      return m.kind === "match" ? m.route.pattern : m.kind;
    };
    expect(hit("GET", "/api/orders/open")).toBe("/api/orders/open");
    expect(hit("GET", "/api/orders/o12")).toBe("/api/orders/:id");
    expect(hit("GET", "/api/me/withdrawals/fee")).toBe("/api/me/withdrawals/fee");
    expect(hit("GET", "/api/me/withdrawals/wd-1")).toBe("/api/me/withdrawals/:id");
    expect(hit("POST", "/sim/withdrawals/config")).toBe("/sim/withdrawals/config");
    expect(hit("POST", "/sim/vault-ops/config")).toBe("/sim/vault-ops/config");
    expect(hit("DELETE", "/api/orders/open")).toBe("method_not_allowed");
  });
});
