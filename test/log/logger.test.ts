import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/index.js";
import { VirtualClock } from "../../src/core/clock.js";
import { createLogger, type LoggerOptions } from "../../src/log/index.js";

const API_KEY = "pmk_live_89abcdef01234567_ZyXwVuTsRqPoNmLkJiHgFeDcBa987654";
const PRIVATE_KEY = `0x${"5f".repeat(32)}`;
/** Not key-shaped: only the key-name rules can catch it. */
const HEADER_SECRET = "plain-header-secret-value";
const ADMIN_TOKEN = "admin-token-not-shaped-42";

function capture(options: LoggerOptions = {}): { log: ReturnType<typeof createLogger>; bytes: () => string; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const log = createLogger({ level: "trace", name: "test", clock: new VirtualClock(Date.UTC(2026, 0, 2)), ...options }, {
    write: (s: string) => {
      chunks.push(s);
    },
  });
  return {
    log,
    bytes: () => chunks.join(""),
    lines: () => chunks.join("").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe("createLogger", () => {
  it("writes one JSON object per line with level label, name, virtual time and message", () => {
    const { log, lines } = capture();
    log.info({ marketId: "M1", qty: 5n }, "quoted %s", "M1");
    log.debug("debug line");
    const [first, second] = lines();
    expect(first).toMatchObject({ level: "info", name: "test", time: "2026-01-02T00:00:00.000Z", marketId: "M1", qty: "5", msg: "quoted M1" });
    expect(second).toMatchObject({ level: "debug", msg: "debug line" });
  });

  it("filters by level", () => {
    const { log, lines } = capture({ level: "warn" });
    log.info("no");
    log.warn("yes");
    expect(lines().map((l) => l.msg)).toEqual(["yes"]);
  });
});

describe("no secret reaches the log bytes", () => {
  it("(a) in a request's headers, at the usual places and deeper", () => {
    const { log, bytes } = capture();
    const headers = { "X-Api-Key": HEADER_SECRET, "x-api-key": HEADER_SECRET, "X-User-Wallet": "0x52908400098527886e0f7030069857d2e4169ee7" };
    log.info({ req: { method: "POST", url: "/api/orders/place", headers } }, "request");
    log.info({ request: { headers } }, "request");
    log.info({ headers }, "headers");
    log.info({ http: { attempt: { request: { headers } } } }, "nested");
    log.info({ req: { headers: { "X-Api-Key": API_KEY } } }, "shaped");
    const out = bytes();
    expect(out).not.toContain(HEADER_SECRET);
    expect(out).not.toContain(API_KEY);
    expect(out).toContain("/api/orders/place");
    expect(out).toContain("0x52908400098527886e0f7030069857d2e4169ee7");
    expect(out).toContain('"X-Api-Key":"[REDACTED]"');
  });

  it("(b) inside an Error's message and stack, its fields and its cause", () => {
    const { log, bytes } = capture();
    const cause = new Error(`signing with ${PRIVATE_KEY} failed`);
    const error = new Error(`401 api_key_bad_secret for ${API_KEY}`, { cause });
    Object.assign(error, { request: { headers: { "x-api-key": HEADER_SECRET } }, apiKey: HEADER_SECRET });
    expect(error.stack).toContain(API_KEY); // the stack really holds it
    log.error({ err: error }, "place failed");
    log.error(error);
    log.error({ error }, "as error key");
    log.warn(`retrying after: ${error.message}`);
    log.warn("interpolated %s / %o", API_KEY, { k: PRIVATE_KEY });
    const out = bytes();
    expect(out).not.toContain(API_KEY);
    expect(out).not.toContain(PRIVATE_KEY.slice(2));
    expect(out).not.toContain(HEADER_SECRET);
    expect(out).toContain("401 api_key_bad_secret for [REDACTED]");
    expect(out).toContain("signing with [REDACTED] failed");
    expect(out).toContain('"stack":"Error: 401 api_key_bad_secret');
  });

  it("(c) in a loaded config object (Secret class), while non-secret fields appear", () => {
    const env = { MM_API_KEY: API_KEY, K1: PRIVATE_KEY, T: ADMIN_TOKEN };
    const config = parseConfig(
      `mode: live
platform:
  baseUrl: https://api.example.test
  apiKey: \${MM_API_KEY}
instance:
  id: prod-7
wallets:
  - name: w1
    privateKey: \${K1}
admin:
  token: \${T}
strategy:
  name: ladder
`,
      "live.yaml",
      env,
    );
    const { log, bytes } = capture();
    log.info({ config }, "config loaded");
    log.info(config, "config at top level");
    log.child({ wallet: config.wallets[0] }).info("child bindings");
    // Someone reveals a secret into a message by mistake: the scrubber still knows the value.
    log.warn(`token is ${config.admin.token!.reveal()}`);
    const out = bytes();
    expect(out).not.toContain(API_KEY);
    expect(out).not.toContain(PRIVATE_KEY.slice(2));
    expect(out).not.toContain(ADMIN_TOKEN);
    expect(out).toContain("https://api.example.test");
    expect(out).toContain("prod-7");
    expect(out).toContain(config.wallets[0]!.address);
    expect(out).toContain('"rateLimitPerMin":600');
    expect(out).toContain('"maxOrderSize":"100000000"');
  });

  it("keeps order hashes readable", () => {
    const { log, lines } = capture();
    const orderHash = `0x${"ab".repeat(32)}`;
    log.info({ orderHash }, "placed");
    expect(lines()[0]!.orderHash).toBe(orderHash);
  });
});
