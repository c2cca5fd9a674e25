import { describe, expect, it } from "vitest";
import { Router } from "../../../src/sim/http/router.js";
import type { HttpMethod, RouteDef } from "../../../src/sim/http/types.js";

const route = (method: HttpMethod, pattern: string): RouteDef => ({
  method,
  pattern,
  auth: "public",
  handler: () => ({ status: 200, body: pattern }),
});

const table = [
  route("GET", "/api/orders/:id"),
  route("GET", "/api/orders/:id/fills"),
  route("GET", "/api/orders/open"),
  route("GET", "/api/orders/lookup"),
  route("POST", "/api/orders/cancel"),
  route("GET", "/api/markets/:slug"),
  route("GET", "/api/markets/:symbol/orderbook"),
  route("GET", "/api/markets/disputable"),
  route("GET", "/api/a/:x/literal"),
  route("GET", "/api/a/lit/:y"),
  route("DELETE", "/sim/faults"),
  route("DELETE", "/sim/faults/:id"),
  route("GET", "/sim/faults"),
];

describe("Router", () => {
  const r = new Router(table);

  it("prefers literal segments over parameters, whatever the table order", () => {
    const open = r.match("GET", "/api/orders/open");
    expect(open.kind === "match" && open.route.pattern).toBe("/api/orders/open");
    const lookup = r.match("GET", "/api/orders/lookup");
    expect(lookup.kind === "match" && lookup.route.pattern).toBe("/api/orders/lookup");
    const dispute = r.match("GET", "/api/markets/disputable");
    expect(dispute.kind === "match" && dispute.route.pattern).toBe("/api/markets/disputable");
    const reversed = new Router([...table].reverse()).match("GET", "/api/orders/open");
    expect(reversed.kind === "match" && reversed.route.pattern).toBe("/api/orders/open");
  });

  it("binds parameters, percent-decoded, across differently named params at one position", () => {
    const id = r.match("GET", "/api/orders/o%2012");
    expect(id).toMatchObject({ kind: "match", params: { id: "o 12" } });
    expect((id as { route: RouteDef }).route.pattern).toBe("/api/orders/:id");
    expect(r.match("GET", "/api/orders/o12/fills")).toMatchObject({ kind: "match", params: { id: "o12" } });
    expect(r.match("GET", "/api/markets/ABC/orderbook")).toMatchObject({ kind: "match", params: { symbol: "ABC" } });
    expect(r.match("GET", "/api/markets/abc-slug")).toMatchObject({ kind: "match", params: { slug: "abc-slug" } });
  });

  it("backtracks from a literal branch that dead-ends into the parameter branch", () => {
    // "lit" is a literal child of /api/a, but /api/a/lit/literal only exists through :x.
    const m = r.match("GET", "/api/a/lit/literal");
    expect(m.kind).toBe("match");
    // literal wins at the first differing segment: /api/a/lit/:y is more specific than /api/a/:x/literal
    expect((m as { route: RouteDef }).route.pattern).toBe("/api/a/lit/:y");
    expect(r.match("GET", "/api/a/zz/literal")).toMatchObject({ kind: "match", params: { x: "zz" } });
  });

  it("answers 405 (not a fallback to a parameter route) when the resource lacks the method", () => {
    expect(r.match("POST", "/api/orders/open")).toEqual({ kind: "method_not_allowed", allowed: ["GET"] });
    expect(r.match("GET", "/api/orders/cancel")).toEqual({ kind: "method_not_allowed", allowed: ["POST"] });
    expect(r.match("PUT", "/sim/faults")).toEqual({ kind: "method_not_allowed", allowed: ["GET", "DELETE"] });
  });

  it("answers not_found for unknown paths and ignores empty segments", () => {
    expect(r.match("GET", "/api/nothing")).toEqual({ kind: "not_found" });
    expect(r.match("GET", "/api/orders/o1/fills/extra")).toEqual({ kind: "not_found" });
    expect(r.match("GET", "/")).toEqual({ kind: "not_found" });
    expect(r.match("GET", "/api//orders/open/")).toMatchObject({ kind: "match", params: {} });
  });

  it("reports a parameter that is not valid percent-encoding", () => {
    expect(r.match("GET", "/api/orders/%E0%A4%A")).toEqual({ kind: "bad_path", segment: "%E0%A4%A" });
  });

  it("refuses duplicate routes and malformed patterns at build time", () => {
    expect(() => new Router([route("GET", "/a/:x"), route("GET", "/a/:y")])).toThrow(/duplicate route/);
    expect(() => new Router([route("GET", "a/b")])).toThrow(/start with/);
    expect(() => new Router([route("GET", "/a/:x/:x")])).toThrow(/used twice/);
    expect(() => new Router([route("GET", "/a/:x/b"), route("POST", "/a/:y/b")])).not.toThrow();
  });
});
