/**
 * The console: pretty lines on a terminal, JSON lines elsewhere (pipes, CI, containers), chosen
 * by MM_LOG_FORMAT when set; the secret scrubbing holds in both.
 */
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { VirtualClock } from "../../src/core/clock.js";
import { createLogger, logFormatOf, prettyDestination, scrubbingDestination } from "../../src/log/index.js";

describe("logFormatOf", () => {
  it("pretty on a terminal, JSON otherwise and under CI; MM_LOG_FORMAT decides when set", () => {
    expect(logFormatOf({}, true)).toBe("pretty");
    expect(logFormatOf({}, false)).toBe("json");
    expect(logFormatOf({ CI: "true" }, true)).toBe("json");
    expect(logFormatOf({ CI: "false" }, true)).toBe("pretty");
    expect(logFormatOf({ MM_LOG_FORMAT: "json" }, true)).toBe("json");
    expect(logFormatOf({ MM_LOG_FORMAT: "pretty" }, false)).toBe("pretty");
    expect(logFormatOf({ MM_LOG_FORMAT: " " }, false)).toBe("json");
    expect(logFormatOf({ MM_LOG_FORMAT: "yaml" }, true)).toEqual({ problem: 'MM_LOG_FORMAT must be json or pretty (got "yaml")' });
  });
});

describe("pretty lines", () => {
  it("time (UTC), level, message and the fields on one line, no pid or hostname, secrets scrubbed", () => {
    const chunks: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk.toString("utf8"));
        done();
      },
    });
    const clock = new VirtualClock(Date.UTC(2026, 10, 26, 12, 40, 28, 5));
    const log = createLogger({ name: "mm", clock }, scrubbingDestination(prettyDestination({ destination: sink, colorize: false })));
    log.info({ wallet: "maker-a", apiKey: "pk_live_k1_abcdefghijabcdefghij" }, "quoting started");
    log.debug("not shown at info");
    const text = chunks.join("");
    expect(text).toBe('[12:40:28.005] INFO: quoting started {"wallet":"maker-a","apiKey":"[REDACTED]"}\n');
  });
});
