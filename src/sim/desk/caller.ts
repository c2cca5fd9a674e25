/**
 * Who is calling a desk route: the effective wallet (after the wallet header rules of 5.2) and
 * its partner. The placement desk, the cancel desk and the routes all take one.
 */
import type { Partner } from "../platform/partners.js";

/** Who is calling: the effective wallet (lower-case) and its partner. */
export interface Caller {
  wallet: string;
  partner?: Partner;
}
