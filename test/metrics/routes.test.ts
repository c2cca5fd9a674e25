/** Route templates for request metrics: ids, addresses and queries never reach a label. */
import { describe, expect, it } from "vitest";
import { ROUTE_TEMPLATES, routeTemplate } from "../../src/metrics/routes.js";

describe("routeTemplate", () => {
  it("maps a concrete path to its template, query and fragment ignored", () => {
    expect(routeTemplate("/api/orders/ord_8f3a2")).toBe("/api/orders/{id}");
    expect(routeTemplate("/api/orders/ord_8f3a2/fills?limit=50")).toBe("/api/orders/{id}/fills");
    expect(routeTemplate("/api/markets/EPL-ARS-CHE/orderbook?outcome=1#x")).toBe("/api/markets/{symbol}/orderbook");
    expect(routeTemplate("/api/users/0x00000000000000000000000000000000000000aa/activity")).toBe("/api/users/{address}/activity");
    expect(routeTemplate("/api/me/positions?wallet=0xabc")).toBe("/api/me/positions");
  });

  it("prefers a literal route over a parameter in the same place", () => {
    expect(routeTemplate("/api/orders/open")).toBe("/api/orders/open");
    expect(routeTemplate("/api/orders/history")).toBe("/api/orders/history");
    expect(routeTemplate("/api/events/featured")).toBe("/api/events/featured");
    expect(routeTemplate("/api/events/some-slug")).toBe("/api/events/{slug}");
    expect(routeTemplate("/api/markets/disputable")).toBe("/api/markets/disputable");
    expect(routeTemplate("/api/markets/{symbol}/traders/by-outcome".replace("{symbol}", "M"))).toBe("/api/markets/{symbol}/traders/by-outcome");
  });

  it("is 'other' for anything not in the spec's list (no unbounded label)", () => {
    expect(routeTemplate("/api/orders")).toBe("other");
    expect(routeTemplate("/api/orders/x/y/z")).toBe("other");
    expect(routeTemplate("/wp-admin/login.php")).toBe("other");
    expect(routeTemplate("/")).toBe("other");
  });

  it("maps every template to itself, and lists each once", () => {
    for (const t of ROUTE_TEMPLATES) expect(routeTemplate(t)).toBe(t);
    expect(new Set(ROUTE_TEMPLATES).size).toBe(ROUTE_TEMPLATES.length);
  });
});
