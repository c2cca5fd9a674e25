/**
 * The simulator's route table, compiled into a segment trie.
 *
 * Precedence: at every segment a literal child is tried before the parameter child, with
 * backtracking, so `/api/orders/open` and `/api/orders/lookup` win over `/api/orders/:id`
 * while `/api/orders/o12` still reaches `:id`. The most specific PATH match names the
 * resource; if that resource has no handler for the method the answer is 405, never a fall
 * back to a less specific pattern (`GET /api/orders/cancel` is not the order "cancel").
 * This agrees with the rate table (src/ratelimit/table.ts), where a literal sibling is never
 * taken as a path parameter.
 *
 * Paths are compared segment by segment after dropping empty segments (a trailing slash or a
 * doubled one does not matter), literals case-sensitively; parameter values are
 * percent-decoded.
 */
import type { HttpMethod, RouteDef } from "./types.js";

interface Terminal {
  readonly route: RouteDef;
  /** Parameter names in segment order. */
  readonly paramNames: readonly string[];
}

interface Node {
  readonly literals: Map<string, Node>;
  param: Node | undefined;
  /** Handlers of the resource that ends here, by method. */
  readonly methods: Map<HttpMethod, Terminal>;
}

export type RouteLookup =
  | { readonly kind: "match"; readonly route: RouteDef; readonly params: Record<string, string> }
  /** The path names a resource, but not for this method. `allowed` is sorted. */
  | { readonly kind: "method_not_allowed"; readonly allowed: readonly HttpMethod[] }
  | { readonly kind: "not_found" }
  /** A parameter segment is not valid percent-encoding. */
  | { readonly kind: "bad_path"; readonly segment: string };

const METHODS: readonly HttpMethod[] = ["GET", "POST", "DELETE"];

function newNode(): Node {
  return { literals: new Map(), param: undefined, methods: new Map() };
}

export function pathSegments(path: string): string[] {
  return path.split("/").filter((s) => s.length > 0);
}

export function isHttpMethod(m: string): m is HttpMethod {
  return (METHODS as readonly string[]).includes(m);
}

export class Router {
  private readonly root = newNode();
  private readonly table: RouteDef[] = [];

  constructor(routes: readonly RouteDef[] = []) {
    for (const r of routes) this.add(r);
  }

  /** Add one route; a second route with the same method and shape is a programming error. */
  add(route: RouteDef): void {
    if (!isHttpMethod(route.method)) throw new Error(`route ${route.pattern}: unsupported method ${String(route.method)}`);
    if (!route.pattern.startsWith("/")) throw new Error(`route pattern must start with '/': ${route.pattern}`);
    let node = this.root;
    const paramNames: string[] = [];
    for (const seg of pathSegments(route.pattern)) {
      if (seg.startsWith(":")) {
        const name = seg.slice(1);
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`route ${route.pattern}: bad parameter name ${seg}`);
        if (paramNames.includes(name)) throw new Error(`route ${route.pattern}: parameter ${seg} used twice`);
        paramNames.push(name);
        node.param ??= newNode();
        node = node.param;
      } else {
        let next = node.literals.get(seg);
        if (!next) node.literals.set(seg, (next = newNode()));
        node = next;
      }
    }
    const clash = node.methods.get(route.method);
    if (clash) throw new Error(`duplicate route ${route.method} ${route.pattern} (clashes with ${clash.route.pattern})`);
    node.methods.set(route.method, { route, paramNames });
    this.table.push(route);
  }

  routes(): readonly RouteDef[] {
    return this.table;
  }

  match(method: string, path: string): RouteLookup {
    const parts = pathSegments(path);
    const values: string[] = [];
    const node = this.find(this.root, parts, 0, values);
    if (!node) return { kind: "not_found" };
    const m = method.toUpperCase();
    const t = isHttpMethod(m) ? node.methods.get(m) : undefined;
    if (!t) return { kind: "method_not_allowed", allowed: METHODS.filter((x) => node.methods.has(x)) };
    const params: Record<string, string> = {};
    for (let i = 0; i < t.paramNames.length; i++) {
      const raw = values[i]!;
      try {
        params[t.paramNames[i]!] = decodeURIComponent(raw);
      } catch {
        return { kind: "bad_path", segment: raw };
      }
    }
    return { kind: "match", route: t.route, params };
  }

  /** Depth-first, literal before parameter; `values` collects the parameter segments. */
  private find(node: Node, parts: readonly string[], i: number, values: string[]): Node | undefined {
    if (i === parts.length) return node.methods.size > 0 ? node : undefined;
    const seg = parts[i]!;
    const lit = node.literals.get(seg);
    if (lit) {
      const hit = this.find(lit, parts, i + 1, values);
      if (hit) return hit;
    }
    if (node.param) {
      values.push(seg);
      const hit = this.find(node.param, parts, i + 1, values);
      if (hit) return hit;
      values.pop();
    }
    return undefined;
  }
}
