/**
 * Turning zod failures into messages a person can act on: every issue names the path of the
 * bad value (`markets[2].tradingWindow.opensAt`), what was expected and what was received.
 * Used at every edge: wire responses, request bodies, query strings, WS frames, config files.
 */
import type { z } from "zod";

export interface ValidationIssue {
  /** Dotted path with [index] for arrays; "(root)" for the value itself. */
  path: string;
  message: string;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "(root)" : out;
}

/**
 * What an issue says. A record key that fails its schema is reported by zod as "Invalid key in
 * record" with the key's own failures nested inside: those are what the person needs to read
 * (a config's or a sweep file's custom message), so they are given instead.
 */
export function issueMessage(issue: z.core.$ZodIssue): string {
  if ((issue.code === "invalid_key" || issue.code === "invalid_element") && issue.issues.length > 0) {
    const nested = issue.issues.map((i) => issueMessage(i)).join("; ");
    // A schema that words the issue itself (with the key's message) is left as it says.
    return issue.message.includes(nested) ? issue.message : `${issue.message}: ${nested}`;
  }
  return issue.message;
}

export function issuesOf(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({ path: formatPath(issue.path), message: issueMessage(issue) }));
}

/** One line per issue: `path: message`. */
export function describeZodError(error: z.ZodError, maxIssues = 10): string {
  return describeIssues(issuesOf(error), maxIssues);
}

/** One line per issue: `path: message`, at most `maxIssues` of them. */
export function describeIssues(issues: readonly ValidationIssue[], maxIssues = 10): string {
  const lines = issues.slice(0, maxIssues).map((i) => `${i.path}: ${i.message}`);
  if (issues.length > maxIssues) lines.push(`(${issues.length - maxIssues} more)`);
  return lines.join("; ");
}

/** Raised when an input from outside fails validation; `where` says which input. */
export class ValidationError extends Error {
  override readonly name = "ValidationError";
  constructor(
    readonly where: string,
    readonly issues: ValidationIssue[],
  ) {
    super(`${where}: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`);
  }
}

/** Parse or throw a ValidationError naming `where` and every bad path. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError(where, issuesOf(result.error));
  return result.data;
}
