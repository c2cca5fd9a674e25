/**
 * DIR/sweep.html (sweep/html.ts) from hand-made results: a heatmap over two swept parameters (the
 * first two, or the ones named), numeric values in numeric order, each cell the best objective of
 * the points sharing it, coloured from red (lowest) to green (highest), empty cells grey; no
 * heatmap with one parameter; the top runs ranked, each point linked to its report when one was
 * written; every text escaped; no script.
 */
import { describe, expect, it } from "vitest";
import { sweepHtml } from "../../src/sweep/html.js";
import type { PointResult } from "../../src/sweep/run-point.js";
import { pointResult } from "./fixtures.js";

const at = (index: number, a: number, b: string, value: string | null, seed = 7): PointResult => pointResult(index, value, { id: `p${index}`, seed, params: { a, b } });

/** a in {1, 2, 10}, b in {x, y}; (1, x) twice (best 1), (2, x) without a value. */
const RESULTS = [at(0, 1, "x", "1"), at(1, 10, "x", "3"), at(2, 2, "y", "2"), at(3, 1, "x", "0.5", 8), at(4, 2, "x", null)];

describe("the sweep page", () => {
  const html = sweepHtml(RESULTS, { title: "Sweep <1> & co" });

  it("is one page without a script, its title escaped", () => {
    expect(html.startsWith("<!doctype html>\n")).toBe(true);
    expect(html).not.toContain("<script");
    expect(html).toContain("<title>Sweep &#60;1&#62; &#38; co</title>");
    expect(html).toContain("<h1>Sweep &#60;1&#62; &#38; co</h1><p>5 run(s), objective pnl.</p>");
  });

  it("maps the best objective per cell over the first two parameters, values in numeric order", () => {
    expect(html).toContain('<p>Best pnl per cell; x: a, y: b.</p><svg xmlns="http://www.w3.org/2000/svg" width="390" height="116" font-family="sans-serif" font-size="12" data-cells="3">');
    // columns 1, 2, 10 (not 1, 10, 2); rows x, y
    expect(html).toContain('<text x="155" y="22" text-anchor="middle">1</text><text x="245" y="22" text-anchor="middle">2</text><text x="335" y="22" text-anchor="middle">10</text>');
    expect(html).toContain('<text x="104" y="48" text-anchor="end">x</text>');
    expect(html).toContain('<text x="104" y="76" text-anchor="end">y</text>');
    // (1, x): best of 1 and 0.5 is 1, the lowest cell: red
    expect(html).toContain('<rect x="110" y="30" width="88" height="26" fill="hsl(0,70%,75%)"><title>a=1 b=x: 1</title></rect><text x="155" y="48" text-anchor="middle">1</text>');
    // (2, x): its only point has no value
    expect(html).toContain('<rect x="200" y="30" width="88" height="26" fill="#eee"><title>a=2 b=x: no run</title></rect><text x="245" y="48" text-anchor="middle"></text>');
    // (10, x) = 3, the highest: green; (2, y) = 2, half way
    expect(html).toContain('<rect x="290" y="30" width="88" height="26" fill="hsl(120,70%,45%)"><title>a=10 b=x: 3</title></rect>');
    expect(html).toContain('<rect x="200" y="58" width="88" height="26" fill="hsl(60,70%,60%)"><title>a=2 b=y: 2</title></rect>');
  });

  it("takes the axes named, colours every cell alike when all are equal, and rounds shown values to four places", () => {
    const rs = [at(0, 1, "x", "1.123456"), at(1, 2, "x", "1.123456")];
    const page = sweepHtml(rs, { title: "t", x: "b", y: "a" });
    expect(page).toContain("x: b, y: a.");
    expect(page).toContain('fill="hsl(60,70%,60%)"><title>b=x a=1: 1.123456</title></rect><text x="155" y="48" text-anchor="middle">1.1235</text>');
  });

  it("has no heatmap with a single parameter", () => {
    const one = sweepHtml([pointResult(0, "1", { params: { a: 1 } })], { title: "t" });
    expect(one).toContain("<p>No heatmap: fewer than two swept parameters.</p>");
    expect(one).not.toContain("<svg");
  });

  it("ranks the top runs, linking a point to its report", () => {
    const rows = (page: string): string[] => page.split("\n").filter((l) => l.startsWith("<tr><td>"));
    expect(html).toContain("<tr><th>#</th><th>point</th><th>a</th><th>b</th><th>seed</th><th>pnl</th><th>pnl</th><th>max dd</th><th>fills</th></tr>");
    expect(rows(html)).toEqual([
      "<tr><td>1</td><td><code>p1</code></td><td>10</td><td>x</td><td>7</td><td>3</td><td>3</td><td>0.5</td><td>3</td></tr>",
      "<tr><td>2</td><td><code>p2</code></td><td>2</td><td>y</td><td>7</td><td>2</td><td>2</td><td>0.5</td><td>6</td></tr>",
      "<tr><td>3</td><td><code>p0</code></td><td>1</td><td>x</td><td>7</td><td>1</td><td>1</td><td>0.5</td><td>0</td></tr>",
      "<tr><td>4</td><td><code>p3</code></td><td>1</td><td>x</td><td>8</td><td>0.5</td><td>0.5</td><td>0.5</td><td>9</td></tr>",
      "<tr><td>5</td><td><code>p4</code></td><td>2</td><td>x</td><td>7</td><td>n/a</td><td>0</td><td>0.5</td><td>12</td></tr>",
    ]);
    const linked = sweepHtml(RESULTS, { title: "t", top: 2, links: new Map([["p2", 'runs/p2.html?a="b"']]) });
    expect(rows(linked)).toHaveLength(2);
    expect(rows(linked)[1]).toContain('<td><a href="runs/p2.html?a=&#34;b&#34;"><code>p2</code></a></td>');
  });

  it("names the objective of the results, pnl for none", () => {
    const o = pointResult(0, "1", { objective: { name: "markout_adjusted_pnl", value: "1" } });
    expect(sweepHtml([o], { title: "t" })).toContain("objective markout_adjusted_pnl.");
    expect(sweepHtml([], { title: "t" })).toContain("<p>0 run(s), objective pnl.</p>");
  });
});
