/** Synthetic order flow: latent fair values, liquidity, takers (fair-anchored, informed, noise), news, other makers. */
export * from "./fair-value.js";
export * from "./sizes.js";
export * from "./agent.js";
export * from "./flow.js";
export * from "./market.js";
export * from "./trading.js";
export * from "./informed.js";
export * from "./noise.js";
export * from "./makers.js";
export * from "./news.js";
export * from "./replay.js";
