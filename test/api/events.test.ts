/**
 * Events (spec 4.2), tags (4.9) and the full walk of the events list (4.2 rule 1) through the
 * client on a scripted transport: filters sent as given (multi-value filters as repeated keys,
 * unset ones left out), `/featured` read in either shape, and the walk asking for pages of 100 from
 * page 1 until an empty page, each event once although the list shifts, stopping at maxPages.
 */
import { describe, expect, it } from "vitest";
import { EVENTS_PAGE_SIZE } from "../../src/api/events.js";
import { EVENT_ID, exampleEvent, exampleTag } from "../wire/fixtures.js";
import { collect, json, rejectionOf, settle } from "./fake-transport.js";
import { harness } from "./helpers.js";

const eventWithId = (n: number) => exampleEvent({ id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`, slug: `e${n}` });
const page = (...ns: number[]) => json(200, { events: ns.map(eventWithId) });

describe("EventsApi.list / get / featured / stats", () => {
  it("sends the filters in order, a multi-value filter as repeated keys, unset ones left out", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(page(), page());
    await settle(clock, client.events.list());
    await settle(clock, client.events.list({ stage: ["group", "final"], tag: "world-cup", status: "closed", q: "arg fra", from: "2026-06-01", page: 2, limit: 50 }));
    expect(transport.paths()).toEqual(["GET /api/events", "GET /api/events?stage=group&stage=final&tag=world-cup&status=closed&q=arg+fra&from=2026-06-01&page=2&limit=50"]);
    expect(transport.requests[1]!.headers["x-api-key"]).toBeUndefined();
  });

  it("get percent-encodes the slug and parses the event", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, exampleEvent()));
    expect((await settle(clock, client.events.get("arg?fra"))).data.id).toBe(EVENT_ID);
    expect(transport.paths()).toEqual(["GET /api/events/arg%3Ffra"]);
  });

  it("featured reads {events} and a bare array alike", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { events: [exampleEvent()] }), json(200, [exampleEvent(), eventWithId(2)]));
    expect((await settle(clock, client.events.featured())).data.events).toHaveLength(1);
    expect((await settle(clock, client.events.featured())).data.events.map((e) => e.slug)).toEqual(["argentina-vs-france", "e2"]);
  });

  it("featured refuses anything else as a schema error naming the bad field in either shape", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, [{ ...exampleEvent(), openMarketCount: -1 }]), json(200, { events: [exampleEvent(), { ...exampleEvent(), openMarketCount: -1 }] }), json(200, "events"));
    const bare = await rejectionOf(clock, client.events.featured());
    expect(bare).toMatchObject({ source: "schema", code: "invalid_response" });
    expect(bare).toMatchObject({ message: expect.stringContaining("events[0].openMarketCount") });
    const page = await rejectionOf(clock, client.events.featured());
    expect(page).toMatchObject({ message: expect.stringContaining("events[1].openMarketCount") });
    expect(await rejectionOf(clock, client.events.featured())).toMatchObject({ source: "schema", code: "invalid_response" });
  });

  it("a list page that is not the documented shape names the bad field", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { events: [exampleEvent(), { ...exampleEvent(), openMarketCount: -1 }] }));
    const error = await rejectionOf(clock, client.events.list());
    expect(error).toMatchObject({ source: "schema", issues: [{ path: "events[1].openMarketCount", message: "expected an integer >= 0" }] });
  });

  it("stats passes an unshown shape through; tags lists the full tag records", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(json(200, { live: 3 }), json(200, { tags: [exampleTag()] }));
    expect((await settle(clock, client.events.stats())).data).toEqual({ live: 3 });
    expect((await settle(clock, client.tags.list())).data.tags[0]!.isFeatured).toBe(true);
    expect(transport.paths()).toEqual(["GET /api/events/stats", "GET /api/tags"]);
  });
});

describe("EventsApi.walk (4.2 rule 1)", () => {
  it("pages of 100 from page 1 until an empty page, each event once though the list shifted", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(page(1, 2, 3), page(3, 4), page());
    const slugs = (await settle(clock, collect(client.events.walk({ vertical: "football" })))).map((e) => e.slug);
    expect(slugs).toEqual(["e1", "e2", "e3", "e4"]);
    expect(EVENTS_PAGE_SIZE).toBe(100);
    expect(transport.paths()).toEqual([1, 2, 3].map((p) => `GET /api/events?vertical=football&page=${p}&limit=100`));
  });

  it("does not stop on a short page, only on an empty one", async () => {
    const { clock, transport, client } = harness();
    transport.enqueue(page(1), page(2), page());
    expect(await settle(clock, collect(client.events.walk()))).toHaveLength(2);
    expect(transport.requests).toHaveLength(3);
  });

  it("stops after maxPages for a platform that never sends an empty page", async () => {
    const { clock, transport, client } = harness();
    transport.route("GET", /^\/api\/events\?/, () => page(1));
    const events = await settle(clock, collect(client.events.walk({}, { maxPages: 4 })));
    expect(events).toHaveLength(1);
    expect(transport.requests).toHaveLength(4);
  });
});
