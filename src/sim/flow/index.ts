/** Synthetic order flow: latent fair values, background takers and liquidity. */
export * from "./fair-value.js";
export * from "./sizes.js";
export * from "./agent.js";
export * from "./flow.js";
