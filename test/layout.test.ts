/**
 * `test/` mirrors `src/` (docs/architecture.md, "Tests"): every source file with code has its test
 * at the mirrored path, src/a/b.ts -> test/a/b.test.ts (or test/a/b.<aspect>.test.ts, tests split
 * by aspect), or is listed in layout-exceptions.ts, which may only shrink. Files without code are exempt: type-only modules and barrels (nothing but
 * re-exports), told apart by parsing each file with TypeScript, not by its name.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { UNMIRRORED } from "./layout-exceptions.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...walk(p));
    else if (e.name.endsWith(".ts")) out.push(p);
  }
  return out.sort();
}

type Kind = "code" | "types" | "barrel";

/** What a module holds at run time: nothing (types only), re-exports only, or code. */
function kindOf(path: string, text: string): Kind {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  let runtime = false;
  let reexportsOnly = true;
  for (const st of sf.statements) {
    if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isImportDeclaration(st)) continue;
    if (ts.isExportDeclaration(st)) {
      if (!st.isTypeOnly) runtime = true;
      continue;
    }
    runtime = true;
    reexportsOnly = false;
  }
  return !runtime ? "types" : reexportsOnly ? "barrel" : "code";
}

const mirrorOf = (src: string): string => `test/${src.slice("src/".length).replace(/\.ts$/, ".test.ts")}`;

/**
 * The tests at a source file's mirrored path: test/a/b.test.ts, and test/a/b.<aspect>.test.ts when
 * its tests are split by aspect (engine.fees.test.ts, core.retry.test.ts).
 */
function mirroredTests(src: string, testFiles: ReadonlySet<string>): string[] {
  const exact = mirrorOf(src);
  const stem = exact.slice(0, -".test.ts".length);
  return [...testFiles].filter((t) => t === exact || (t.startsWith(`${stem}.`) && t.endsWith(".test.ts") && !t.slice(stem.length + 1, -".test.ts".length).includes("/")));
}

/** Relative imports of a file (static and dynamic), as repository paths of .ts files that exist. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)) {
    let p = normalize(join(dirname(file), m[1]!)).replace(/\.js$/, ".ts");
    if (!p.endsWith(".ts")) p += ".ts";
    if (existsSync(join(ROOT, p))) out.push(relative(ROOT, join(ROOT, p)).split("\\").join("/"));
  }
  return out;
}

const sources = walk("src");
const testFiles = new Set(walk("test").filter((f) => f.endsWith(".test.ts")));
const code = sources.filter((f) => kindOf(f, readFileSync(join(ROOT, f), "utf8")) === "code");
const unmirrored = code.filter((f) => mirroredTests(f, testFiles).length === 0);

describe("test/ mirrors src/", () => {
  it("tells code from type-only modules and barrels", () => {
    expect(kindOf("a.ts", 'import type { X } from "./x.js";\nexport interface A { x: X }\nexport type B = A;\n')).toBe("types");
    expect(kindOf("a.ts", 'export * from "./x.js";\nexport { y } from "./y.js";\nexport type { Z } from "./z.js";\n')).toBe("barrel");
    expect(kindOf("a.ts", 'export * from "./x.js";\nexport const one = 1;\n')).toBe("code");
    expect(kindOf("a.ts", "export enum E { A }\n")).toBe("code");
    expect(kindOf("a.ts", "export type { Z } from './z.js';\n")).toBe("types");
  });

  it("finds a module's tests split by aspect beside its mirrored path, and nothing deeper", () => {
    const files = new Set(["test/a/b.test.ts", "test/a/b.fees.test.ts", "test/a/bc.test.ts", "test/a/b/c.test.ts", "test/a/b.x/y.test.ts"]);
    expect(mirroredTests("src/a/b.ts", files)).toEqual(["test/a/b.test.ts", "test/a/b.fees.test.ts"]);
    expect(mirroredTests("src/a/b/c.ts", files)).toEqual(["test/a/b/c.test.ts"]);
    expect(mirroredTests("src/a/d.ts", files)).toEqual([]);
  });

  it("every source file with code has a test at the mirrored path, or is listed in layout-exceptions.ts", () => {
    const missing = unmirrored.filter((f) => !(f in UNMIRRORED));
    expect(missing.map((f) => `${f}: add ${mirrorOf(f)}`)).toEqual([]);
  });

  it("the list only holds files that still exist, have code and still lack their mirrored test", () => {
    const stale = Object.keys(UNMIRRORED).filter((f) => !unmirrored.includes(f));
    expect(stale.map((f) => `${f}: ${existsSync(join(ROOT, f)) ? (mirroredTests(f, testFiles).length > 0 ? `has ${mirroredTests(f, testFiles).join(", ")} now` : "has no code") : "gone"}; remove it from layout-exceptions.ts`)).toEqual([]);
  });

  it("every listed file is reached by some test through its imports, or says why not", () => {
    const tests = [...testFiles];
    const graph = new Map<string, string[]>();
    const reached = new Set<string>();
    const stack = tests.flatMap((t) => importsOf(t));
    while (stack.length > 0) {
      const f = stack.pop()!;
      if (reached.has(f)) continue;
      reached.add(f);
      let next = graph.get(f);
      if (next === undefined) graph.set(f, (next = importsOf(f)));
      stack.push(...next);
    }
    const unreached = Object.entries(UNMIRRORED).filter(([f, why]) => !reached.has(f) && why.trim() === "");
    expect(unreached.map(([f]) => f)).toEqual([]);
  });
});
