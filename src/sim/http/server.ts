/**
 * The simulator over real HTTP and WebSocket: a node:http server in front of the pipeline,
 * with `/ws/user` upgrades handed to the `ws` package (`noServer`) after WsHub authenticated
 * them.
 *
 * - Binds host/port (port 0 picks a free port; `url` is the bound address).
 * - Keep-alive on (node's default), bodies capped (default 1 MiB; larger -> 413 envelope with
 *   `Connection: close`).
 * - A refused upgrade is answered with its HTTP status and the envelope JSON, then the socket
 *   is closed; `ws` never sees it. So are a request node's parser refuses (`clientError`) and
 *   `CONNECT` (malformed.ts).
 * - close(): stop accepting, close idle keep-alive sockets, close every WebSocket with 1001,
 *   let in-flight requests finish for up to `closeGraceMs` (real time: shutdown is a property
 *   of the process, not of the simulated clock), then cut what is left.
 */
import { createServer, maxHeaderSize, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket, type RawData } from "ws";
import { RealClock, type Clock } from "../../core/clock.js";
import { createLogger, type Logger } from "../../log/index.js";
import type { Simulator } from "../simulator.js";
import { WsHub } from "../ws/hub.js";
import { clientErrorAnswer, connectAnswer, OwedResponses, rawHttpResponse, type MalformedAnswer, type ParserError } from "./malformed.js";
import { Pipeline, type RawResponse } from "./pipeline.js";
import type { RouteDef } from "./types.js";

export interface SimServerOptions {
  sim: Simulator;
  /** The route table (normally `allRoutes()`). Ignored when `pipeline` is given. */
  routes?: readonly RouteDef[];
  /** Share a pipeline (and its rate-limit state) with an in-process transport. */
  pipeline?: Pipeline;
  hub?: WsHub;
  host?: string;
  /** 0 = any free port. Default 0. */
  port?: number;
  logger?: Logger;
  maxBodyBytes?: number;
  /** Largest WebSocket message accepted from a client. Default 64 KiB. */
  maxWsPayloadBytes?: number;
  closeGraceMs?: number;
  /** Timer source of the close grace period (real time). */
  realClock?: Clock;
}

export const DEFAULT_MAX_BODY_BYTES = 1 << 20;
const DEFAULT_CLOSE_GRACE_MS = 5_000;

function rawToString(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString("utf8");
  return data.toString("utf8");
}

export class SimServer {
  readonly pipeline: Pipeline;
  readonly hub: WsHub;
  private readonly server: Server;
  private readonly wss: WebSocketServer;
  private readonly logger: Logger;
  private readonly maxBodyBytes: number;
  private readonly closeGraceMs: number;
  private readonly realClock: Clock;
  private readonly sockets = new Set<Socket>();
  private readonly owed = new OwedResponses();
  private readonly malformed = new WeakSet<Duplex>();
  private inFlight = 0;
  private boundUrl: string | undefined;
  private closing: Promise<void> | undefined;

  constructor(opts: SimServerOptions) {
    this.logger = opts.logger ?? createLogger({ level: "silent" });
    if (!opts.pipeline && !opts.routes) throw new Error("SimServer needs routes or a pipeline");
    this.pipeline = opts.pipeline ?? new Pipeline({ sim: opts.sim, routes: opts.routes ?? [], logger: this.logger });
    this.hub = opts.hub ?? new WsHub({ sim: opts.sim, pipeline: this.pipeline, logger: this.logger });
    this.maxBodyBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.closeGraceMs = opts.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS;
    this.realClock = opts.realClock ?? new RealClock();
    this.wss = new WebSocketServer({ noServer: true, maxPayload: opts.maxWsPayloadBytes ?? 64 * 1024 });
    this.server = createServer({ keepAlive: true }, (req, res) => this.onRequest(req, res));
    this.server.on("connection", (s: Socket) => {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
    });
    this.server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => this.onUpgrade(req, socket, head));
    this.server.on("clientError", (err: ParserError, socket: Duplex) => this.onClientError(err, socket));
    this.server.on("connect", (_req: IncomingMessage, socket: Duplex) => this.answerRaw(socket, connectAnswer()));
  }

  /** Listen; resolves with the bound base URL (`http://127.0.0.1:PORT`). */
  async listen(host = "127.0.0.1", port = 0): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      const onError = (err: Error): void => reject(err);
      this.server.once("error", onError);
      this.server.listen(port, host, () => {
        this.server.off("error", onError);
        resolve();
      });
    });
    const addr = this.server.address() as AddressInfo;
    const shownHost = addr.family === "IPv6" || addr.address.includes(":") ? `[${addr.address}]` : addr.address;
    this.boundUrl = `http://${shownHost}:${addr.port}`;
    return this.boundUrl;
  }

  get url(): string {
    if (this.boundUrl === undefined) throw new Error("server is not listening");
    return this.boundUrl;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Graceful stop; safe to call more than once. */
  close(): Promise<void> {
    this.closing ??= this.doClose();
    return this.closing;
  }

  private async doClose(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.hub.closeAll(1001, "server shutting down");
    this.server.closeIdleConnections();
    // Let close handshakes and in-flight requests finish; whatever is left after the grace is cut.
    const deadline = this.realClock.now() + this.closeGraceMs;
    while ((this.inFlight > 0 || this.wss.clients.size > 0) && this.realClock.now() < deadline) await this.realClock.sleep(10);
    for (const ws of this.wss.clients) ws.terminate();
    this.server.closeAllConnections();
    for (const s of this.sockets) s.destroy();
    await closed;
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    this.inFlight++;
    const done = (): void => {
      this.inFlight--;
    };
    res.on("close", done);
    this.owed.track(res);
    const declared = Number(req.headers["content-length"] ?? "0");
    if (Number.isFinite(declared) && declared > this.maxBodyBytes) return this.tooLarge(req, res);
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on("data", (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > this.maxBodyBytes) {
        refused = true;
        chunks.length = 0;
        this.tooLarge(req, res);
        return;
      }
      chunks.push(chunk);
    });
    req.on("error", (err) => {
      this.logger.debug({ err }, "request stream failed");
      res.destroy();
    });
    req.on("end", () => {
      if (refused) return;
      const raw = {
        method: req.method ?? "GET",
        url: req.url ?? "/",
        headers: req.headers,
        bodyText: Buffer.concat(chunks).toString("utf8"),
        ...(req.socket.remoteAddress !== undefined ? { remoteAddress: req.socket.remoteAddress } : {}),
      };
      // handle() never rejects; the catch is a last guard so no rejection can go unhandled.
      this.pipeline
        .handle(raw)
        .then((out) => this.write(res, out))
        .catch((err: unknown) => {
          this.logger.error({ err }, "simulator request failed outside the pipeline");
          if (!res.headersSent) res.writeHead(500).end();
          else res.destroy();
        });
    });
  }

  private tooLarge(req: IncomingMessage, res: ServerResponse): void {
    const out = this.pipeline.errorResponse(413, "invalid_request", `request body exceeds ${this.maxBodyBytes} bytes`, {
      details: { maxBytes: this.maxBodyBytes },
      headers: { Connection: "close" },
    });
    this.write(res, out);
    // Read and discard the rest so the client sees the answer rather than a reset.
    req.resume();
  }

  private write(res: ServerResponse, out: RawResponse): void {
    if (res.headersSent || res.destroyed) return;
    const body = Buffer.from(out.bodyText, "utf8");
    res.writeHead(out.status, STATUS_CODES[out.status], { ...out.headers, "Content-Length": String(body.length) });
    res.end(body);
  }

  private onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on("error", (err) => this.logger.debug({ err }, "upgrade socket error"));
    if (this.closing) return void socket.destroy();
    const check = this.hub.upgrade({
      url: req.url ?? "/",
      headers: req.headers,
      ...(req.socket.remoteAddress !== undefined ? { remoteAddress: req.socket.remoteAddress } : {}),
    });
    if (!check.ok) return this.refuseUpgrade(socket, check.response);
    const auth = check.auth;
    this.wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      const session = this.hub.open(auth, {
        send: (text) => ws.send(text),
        close: (code, reason) => ws.close(code, reason),
        terminate: () => ws.terminate(),
      });
      // A binary message is read as UTF-8 text: JSON that arrived binary still works.
      ws.on("message", (data: RawData) => session.receive(rawToString(data)));
      ws.on("close", () => session.transportClosed());
      ws.on("error", (err) => {
        this.logger.debug({ err, session: session.id }, "websocket error");
        session.transportClosed();
      });
    });
  }

  private refuseUpgrade(socket: Duplex, out: RawResponse): void {
    socket.end(rawHttpResponse(out));
  }

  /**
   * A request node's parser refused: the JSON envelope on the raw socket, then close; after the
   * responses still owed to earlier requests on this connection, so none interleave.
   */
  private onClientError(err: ParserError, socket: Duplex): void {
    this.logger.debug({ err }, "malformed HTTP request");
    // node's parser reports again for every further chunk; the first report is answered.
    if (this.malformed.has(socket)) return;
    this.malformed.add(socket);
    if (err.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
    socket.pause();
    this.owed.afterOwed(socket, (answered) => {
      if (!socket.writable) return void socket.destroy();
      if (answered) return void socket.end();
      this.answerRaw(socket, clientErrorAnswer(err, maxHeaderSize));
    });
  }

  /** Answer a socket no ServerResponse owns with an error envelope and the common headers. */
  private answerRaw(socket: Duplex, answer: MalformedAnswer): void {
    socket.on("error", (err) => this.logger.debug({ err }, "socket error after a malformed request"));
    const out = this.pipeline.errorResponse(answer.status, answer.code, answer.message, { details: answer.details });
    socket.end(rawHttpResponse(out));
  }
}

/** Build and listen in one step. */
export async function startSimServer(opts: SimServerOptions): Promise<SimServer> {
  const server = new SimServer(opts);
  await server.listen(opts.host ?? "127.0.0.1", opts.port ?? 0);
  return server;
}
