/** The simulator's `/ws/user` gateway: upgrade auth (WsHub) and the per-connection protocol (WsSession). */
export * from "./hub.js";
export * from "./session.js";
