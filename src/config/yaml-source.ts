/**
 * Reading a YAML file while keeping enough of its source to point at lines: parse errors come
 * back with their line and column, and `lineOf(path)` finds the line of the key a validation
 * issue names (or of its deepest existing parent when the key is missing).
 *
 * Parse errors are reported without yaml's source excerpt, which could quote a secret that was
 * (wrongly) written into the file.
 *
 * An empty value (`key:` or `key: null`) counts as an absent key: a section whose settings are
 * all commented out then gets its defaults instead of a "received null" error.
 *
 * `scalarText(path)` is the source text of a scalar exactly as written: money written as a YAML
 * number (`maxOrderSize: 50.5`) is read from it, never from the double YAML parsed it into
 * (load.ts, schema-walk.ts moneyFromSource).
 */
import { LineCounter, isMap, isPair, isScalar, isSeq, parseDocument, type Document } from "yaml";

export interface YamlProblem {
  line: number;
  col: number;
  message: string;
}

export interface YamlSource {
  /** The document as plain JS (undefined when there were parse errors). */
  value: unknown;
  errors: YamlProblem[];
  /** 1-based line of the node at `path`, or of its deepest existing ancestor. */
  lineOf(path: readonly PropertyKey[]): number | undefined;
  /** The source text of the scalar at `path` as written (quotes included when quoted). */
  scalarText(path: readonly PropertyKey[]): string | undefined;
}

export function readYaml(text: string): YamlSource {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, schema: "core" });
  const errors = doc.errors.map((e) => {
    const pos = lineCounter.linePos(e.pos[0]);
    return { line: pos.line, col: pos.col, message: e.message };
  });
  const lineAt = (offset: number | undefined): number | undefined =>
    offset === undefined ? undefined : lineCounter.linePos(offset).line;
  let value: unknown;
  if (errors.length === 0) {
    try {
      value = dropNullEntries(doc.toJS({ maxAliasCount: 100 }));
    } catch (error) {
      errors.push({ line: 1, col: 1, message: (error as Error).message });
    }
  }
  const scalarText = (path: readonly PropertyKey[]): string | undefined => {
    const node = nodeAt(doc, path);
    const range = isScalar(node) ? node.range : undefined;
    return range === undefined || range === null ? undefined : text.slice(range[0], range[1]);
  };
  return { value, errors, lineOf: (path) => findLine(doc, path, lineAt), scalarText };
}

function dropNullEntries(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNullEntries);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = dropNullEntries(v);
  return out;
}

/** The node at `path`, or undefined when the path leaves the document. */
function nodeAt(doc: Document.Parsed, path: readonly PropertyKey[]): unknown {
  let node: unknown = doc.contents;
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(key));
      if (!pair) return undefined;
      node = pair.value;
    } else if (isSeq(node) && typeof key === "number") {
      node = node.items[key];
    } else return undefined;
  }
  return node;
}

function findLine(
  doc: Document.Parsed,
  path: readonly PropertyKey[],
  lineAt: (offset: number | undefined) => number | undefined,
): number | undefined {
  let node: unknown = doc.contents;
  let line = lineAt(doc.contents?.range?.[0]);
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(key));
      if (!pair) break;
      line = lineAt(isScalar(pair.key) ? pair.key.range?.[0] : undefined) ?? line;
      node = pair.value;
    } else if (isSeq(node) && typeof key === "number") {
      const item: unknown = node.items[key];
      if (item === undefined) break;
      line = lineAt(isScalar(item) || isMap(item) || isSeq(item) ? item.range?.[0] : undefined) ?? line;
      node = item;
    } else break;
  }
  return line;
}
