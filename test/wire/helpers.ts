/** Assertions shared by the wire tests: parse through the project's ValidationError path. */
import { expect } from "vitest";
import type { z } from "zod";
import { ValidationError, parseOrThrow } from "../../src/core/validation.js";

export function expectValid<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  return parseOrThrow(schema, value, "test");
}

/** Expect a rejection whose issues name `path` (formatted like `markets[0].tradingWindow.opensAt`). */
export function expectInvalidAt(schema: z.ZodType, value: unknown, path: string): ValidationError {
  let caught: unknown;
  try {
    parseOrThrow(schema, value, "test");
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(ValidationError);
  const err = caught as ValidationError;
  expect(err.issues.map((i) => i.path)).toContain(path);
  expect(err.message).toContain(path);
  return err;
}

/** A deep copy with one path replaced (or deleted with `undefined` + del). */
export function withPath(value: unknown, path: (string | number)[], replacement: unknown, del = false): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let cur: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) cur = cur[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (del) delete cur[last];
  else cur[last] = replacement;
  return copy;
}

/** The message of the issue at `path` when `value` is refused (fails when nothing is refused there). */
export function issueAt(schema: z.ZodType, value: unknown, path: string): string {
  const err = expectInvalidAt(schema, value, path);
  return err.issues.find((i) => i.path === path)!.message;
}
