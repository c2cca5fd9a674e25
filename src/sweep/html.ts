/**
 * DIR/sweep.html: one self-contained page (inline SVG, no script, no network): a heatmap of the
 * objective over two swept parameters (the best value among the points sharing a cell: other
 * parameters and seeds), and the top runs.
 */
import { Decimal } from "decimal.js";
import type { PointResult } from "./run-point.js";
import { rank, shortKey } from "./results.js";

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function sortValues(vs: string[]): string[] {
  const numeric = vs.every((v) => /^-?\d+(\.\d+)?$/.test(v));
  return numeric ? [...vs].sort((a, b) => new Decimal(a).cmp(new Decimal(b))) : [...vs].sort();
}

export function sweepHtml(results: readonly PointResult[], opts: { title: string; x?: string; y?: string; top?: number; links?: ReadonlyMap<string, string> }): string {
  const keys = [...new Set(results.flatMap((r) => Object.keys(r.params)))];
  const x = opts.x ?? keys[0];
  const y = opts.y ?? keys[1];
  const objective = results[0]?.objective.name ?? "pnl";
  let heat = "<p>No heatmap: fewer than two swept parameters.</p>";
  if (x !== undefined && y !== undefined) {
    const xs = sortValues([...new Set(results.map((r) => String(r.params[x])))]);
    const ys = sortValues([...new Set(results.map((r) => String(r.params[y])))]);
    const cell = new Map<string, Decimal>();
    for (const r of results) {
      if (r.objective.value === null) continue;
      const k = `${String(r.params[x])}\u0000${String(r.params[y])}`;
      const v = new Decimal(r.objective.value);
      const had = cell.get(k);
      if (had === undefined || v.gt(had)) cell.set(k, v);
    }
    const vals = [...cell.values()];
    const lo = vals.length > 0 ? Decimal.min(...vals) : new Decimal(0);
    const hi = vals.length > 0 ? Decimal.max(...vals) : new Decimal(0);
    const w = 90;
    const h = 28;
    const left = 110;
    const top = 30;
    const rects: string[] = [];
    ys.forEach((yv, j) => {
      rects.push(`<text x="${left - 6}" y="${top + j * h + h / 2 + 4}" text-anchor="end">${esc(yv)}</text>`);
      xs.forEach((xv, i) => {
        const v = cell.get(`${xv}\u0000${yv}`);
        const t = v === undefined || hi.eq(lo) ? 0.5 : v.minus(lo).div(hi.minus(lo)).toNumber();
        const fill = v === undefined ? "#eee" : `hsl(${Math.round(t * 120)},70%,${Math.round(75 - t * 30)}%)`;
        rects.push(`<rect x="${left + i * w}" y="${top + j * h}" width="${w - 2}" height="${h - 2}" fill="${fill}"><title>${esc(`${x}=${xv} ${y}=${yv}: ${v?.toFixed() ?? "no run"}`)}</title></rect>`);
        rects.push(`<text x="${left + i * w + w / 2}" y="${top + j * h + h / 2 + 4}" text-anchor="middle">${esc(v === undefined ? "" : v.toDecimalPlaces(4).toFixed())}</text>`);
      });
    });
    xs.forEach((xv, i) => rects.push(`<text x="${left + i * w + w / 2}" y="${top - 8}" text-anchor="middle">${esc(xv)}</text>`));
    const width = left + xs.length * w + 10;
    const height = top + ys.length * h + 30;
    heat = `<p>Best ${esc(objective)} per cell; x: ${esc(shortKey(x))}, y: ${esc(shortKey(y))}.</p><svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12" data-cells="${cell.size}">${rects.join("")}</svg>`;
  }
  const top = rank(results).slice(0, opts.top ?? 20);
  const rows = top
    .map((r, i) => `<tr><td>${i + 1}</td><td>${pointCell(r.id, opts.links?.get(r.id))}</td>${keys.map((k) => `<td>${esc(String(r.params[k] ?? ""))}</td>`).join("")}<td>${r.seed}</td><td>${esc(r.objective.value ?? "n/a")}</td><td>${esc(r.metrics.pnl)}</td><td>${esc(r.metrics.maxDrawdown)}</td><td>${r.metrics.fills}</td></tr>`)
    .join("\n");
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${esc(opts.title)}</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}</style></head>
<body><h1>${esc(opts.title)}</h1><p>${results.length} run(s), objective ${esc(objective)}.</p>
<h2>Heatmap</h2>${heat}
<h2>Top runs</h2><table><tr><th>#</th><th>point</th>${keys.map((k) => `<th>${esc(shortKey(k))}</th>`).join("")}<th>seed</th><th>${esc(objective)}</th><th>pnl</th><th>max dd</th><th>fills</th></tr>
${rows}
</table></body></html>
`;
}

/** A point's id, linked to its run's HTML report when one was written. */
function pointCell(id: string, href: string | undefined): string {
  return href === undefined ? `<code>${esc(id)}</code>` : `<a href="${esc(href)}"><code>${esc(id)}</code></a>`;
}
