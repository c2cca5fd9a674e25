/**
 * The external-tool rule of test/deploy/tools.ts: a missing checker skips its checks with a notice
 * on a developer's machine and fails them under CI; a present one runs.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { externalTool, underCi } from "./tools.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("externalTool", () => {
  it("missing, CI unset: skipped, with one notice naming the tool and its package", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const tool = externalTool("mm-no-such-tool", "mm-no-such-package", {});
    expect(tool).toMatchObject({ available: false, skip: true });
    expect(tool.noticeIfSkipped("the checks")).toBe(true);
    expect(tool.noticeIfSkipped("the checks again")).toBe(true);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/^NOTICE: skipping the checks .*mm-no-such-tool not found on PATH.*apt-get install -y mm-no-such-package/);
  });

  it("missing, CI set: not skipped, and running it throws the install hint (the test fails)", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const tool = externalTool("mm-no-such-tool", "mm-no-such-package", { CI: "true" });
    expect(tool).toMatchObject({ available: false, skip: false });
    expect(tool.noticeIfSkipped("the checks")).toBe(false);
    expect(warn).not.toHaveBeenCalled();
    expect(() => tool.run(["check"])).toThrow(/mm-no-such-tool not found on PATH/);
  });

  it("present: runs, with its output and exit status", () => {
    const tool = externalTool(process.execPath, "nodejs", {});
    expect(tool).toMatchObject({ available: true, skip: false });
    expect(tool.run(["-e", "process.stdout.write('hi'); process.exit(3)"])).toEqual({ status: 3, out: "hi" });
  });

  it("reads CI as most CI systems set it", () => {
    expect(underCi({ CI: "true" })).toBe(true);
    expect(underCi({ CI: "1" })).toBe(true);
    expect(underCi({})).toBe(false);
    expect(underCi({ CI: "" })).toBe(false);
    expect(underCi({ CI: "false" })).toBe(false);
    expect(underCi({ CI: "0" })).toBe(false);
  });
});

describe(".ci/run", () => {
  it("sets CI and installs both packages when their tools are missing", () => {
    const ci = readFileSync(".ci/run", "utf8");
    expect(ci).toMatch(/^export CI=true$/m);
    expect(ci).toContain("command -v promtool >/dev/null 2>&1 || missing+=(prometheus)");
    expect(ci).toContain("command -v amtool >/dev/null 2>&1 || missing+=(prometheus-alertmanager)");
    expect(ci).toContain('apt-get install -y -qq "${missing[@]}"');
  });
});
