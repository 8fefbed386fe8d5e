import { randomUUID } from "node:crypto";
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { clientErrorAnswer, refusal, type ParserError, type Refusal } from "./parser-refusals.js";

/**
 * The most bytes a request line and its headers may take together (Node's default, fixed here so
 * a `--max-http-header-size` flag cannot change what docs/errors.md promises).
 */
export const MAX_HEAD_BYTES = 16 * 1024;

/** How long a refused connection may keep sending before it is cut (its bytes are discarded). */
const LINGER_MS = 2000;

/** The response bytes for `refusal`, written straight on a socket no route owns. */
export function rawAnswer({ status, body }: Refusal, headers: Readonly<Record<string, string>>): Buffer {
  const json = Buffer.from(JSON.stringify(body), "utf8");
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}`,
    `Date: ${new Date().toUTCString()}`,
    "Connection: close",
    "Content-Type: application/json; charset=utf-8",
    `Content-Length: ${json.length}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1"), json]);
}

/** Sockets already answered: the parser keeps reporting on them until they close. */
const answered = new WeakSet<Duplex>();

/**
 * Writes `answer` and closes: the write side at once, the read side when the client hangs up or
 * after {@link LINGER_MS}. Closing both at once would let the kernel reset a connection that still
 * has unread bytes, and a client may then lose the answer before reading it.
 */
function answerAndClose(socket: Duplex, answer: Buffer): void {
  answered.add(socket);
  socket.end(answer);
  const cut = setTimeout(() => socket.destroy(), LINGER_MS);
  cut.unref();
  socket.once("close", () => clearTimeout(cut));
}

/** What Node keeps on a server socket: the response in flight, if any (not in @types/node). */
type ServerSocket = Duplex & { _httpMessage?: (ServerResponse & { req?: IncomingMessage }) | null };

/**
 * Fastify's `clientErrorHandler`: answers what Node's HTTP parser refuses (and header timeouts)
 * in the `{error, code}` envelope with the usual security headers, then closes the connection.
 * Nothing is written when the socket is gone, or when a response is already under way on it (an
 * answer now would be read as that response's): that response is let finish, then the connection
 * closes.
 */
export function clientErrorHandler(headers: Readonly<Record<string, string>>) {
  // Fastify types the error's rawPacket as an object; Node hands over a Buffer.
  return function handleClientError(this: FastifyInstance, connectionError: Error, socket: Duplex): void {
    const error: ParserError = connectionError;
    if (answered.has(socket)) return;
    if (error.code === "ECONNRESET" || socket.destroyed) return;
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const inFlight = (socket as ServerSocket)._httpMessage ?? undefined;
    if (inFlight !== undefined && (inFlight.headersSent || inFlight.req?.complete === true)) {
      // The answer to an earlier request (or this one's, already begun) goes out whole; the
      // refused request gets none, and the connection closes after it.
      answered.add(socket);
      inFlight.once("close", () => socket.destroy());
      return;
    }
    const answer = clientErrorAnswer(error, inFlight?.req);
    const requestId = randomUUID();
    logRefusal(this.log, answer, requestId, error);
    answerAndClose(socket, rawAnswer(answer, { "X-Request-Id": requestId, ...headers }));
  };
}

function logRefusal(log: FastifyBaseLogger, { status, body }: Refusal, reqId: string, error?: ParserError): void {
  log.info({ reqId, code: body.code, status, parserCode: error?.code, reason: error?.reason }, "request refused before routing");
}

/**
 * Answers the two requests Node would otherwise answer or drop on its own: `CONNECT` (the socket
 * was destroyed without a word) and an `Expect` other than `100-continue` (an empty 417).
 */
export function installParserAnswers(server: Server, log: FastifyBaseLogger, headers: Readonly<Record<string, string>>): void {
  server.on("connect", (_request: IncomingMessage, socket: Duplex) => {
    const answer = refusal("malformed_request", "CONNECT is not supported, this server is not a proxy");
    const requestId = randomUUID();
    logRefusal(log, answer, requestId);
    socket.on("error", () => {});
    socket.resume();
    answerAndClose(socket, rawAnswer(answer, { "X-Request-Id": requestId, ...headers }));
  });
  server.on("checkExpectation", (_request: IncomingMessage, response: ServerResponse) => {
    const answer = refusal("expectation_failed");
    const requestId = randomUUID();
    logRefusal(log, answer, requestId);
    const json = JSON.stringify(answer.body);
    response
      .writeHead(answer.status, {
        ...headers,
        "X-Request-Id": requestId,
        Connection: "close",
        "Content-Type": "application/json; charset=utf-8",
        "Content-Length": Buffer.byteLength(json),
      })
      .end(json);
  });
}
