import net from "node:net";
import { ErrorCodes, type ErrorCode } from "@tidings/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "@tidings/testing/test-app";

/** One answer as it arrived on the socket. */
interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
  /** The server closed the connection on its own (the test never does before reading). */
  closedByServer: boolean;
}

/**
 * Writes `request` byte for byte on a fresh connection, half-closes it when `halfClose`, and
 * reads what comes back until the server closes the connection (or 5 s pass).
 */
function exchange(port: number, request: string | Buffer, halfClose: boolean): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let closedByServer = true;
    const giveUp = setTimeout(() => {
      closedByServer = false;
      socket.destroy();
    }, 5000);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(giveUp);
      const raw = Buffer.concat(chunks);
      const split = raw.indexOf("\r\n\r\n");
      if (split < 0) {
        reject(new Error(`no HTTP answer, got ${JSON.stringify(raw.toString("latin1"))}`));
        return;
      }
      const [statusLine = "", ...lines] = raw.subarray(0, split).toString("latin1").split("\r\n");
      const headers = new Map<string, string>();
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1];
      if (status === undefined) {
        reject(new Error(`not an HTTP/1.1 status line: ${JSON.stringify(statusLine)}`));
        return;
      }
      resolve({ status: Number(status), headers, body: raw.subarray(split + 4), closedByServer });
    });
    socket.write(request, () => {
      if (halfClose) socket.end();
    });
  });
}

const HOST = "Host: 127.0.0.1\r\n";
const JSON_POST = `POST /api/v1/feedback HTTP/1.1\r\n${HOST}Content-Type: application/json\r\n`;
const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : Buffer.from(p))));

interface Family {
  name: string;
  request: string | Buffer;
  status: number;
  code: ErrorCode;
  /** The answer must carry `Connection: close` (framing is lost, or the request head was refused). */
  closes?: boolean;
  /** Keep the connection open for writing after the request (default: half-close it). */
  keepWriting?: boolean;
}

const families: Family[] = [
  // Content-Length
  { name: "a non-numeric Content-Length", request: `${JSON_POST}Content-Length: abc\r\n\r\n{}`, status: 400, code: "invalid_content_length" },
  { name: "a negative Content-Length", request: `${JSON_POST}Content-Length: -1\r\n\r\n{}`, status: 400, code: "invalid_content_length" },
  { name: "a signed Content-Length", request: `${JSON_POST}Content-Length: +2\r\n\r\n{}`, status: 400, code: "invalid_content_length" },
  { name: "a Content-Length past 2^64", request: `${JSON_POST}Content-Length: 99999999999999999999999\r\n\r\n{}`, status: 400, code: "invalid_content_length" },
  { name: "a repeated equal Content-Length", request: `${JSON_POST}Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}`, status: 400, code: "invalid_content_length" },
  { name: "two different Content-Lengths", request: `${JSON_POST}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`, status: 400, code: "invalid_content_length" },
  {
    name: "Transfer-Encoding with Content-Length",
    request: `${JSON_POST}Transfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
    status: 400,
    code: "invalid_content_length",
  },
  { name: "a body shorter than its Content-Length", request: `${JSON_POST}Content-Length: 40\r\n\r\n{"title":`, status: 400, code: "invalid_content_length" },
  // Transfer-Encoding and chunked framing
  { name: "a chunk size that is not hex", request: `${JSON_POST}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`, status: 400, code: "malformed_request" },
  { name: "a chunk size past 2^64", request: `${JSON_POST}Transfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n{}`, status: 400, code: "malformed_request" },
  { name: "a chunked body cut short", request: `${JSON_POST}Transfer-Encoding: chunked\r\n\r\n10\r\n{"ti`, status: 400, code: "malformed_request" },
  { name: "a chunk missing its CRLF", request: `${JSON_POST}Transfer-Encoding: chunked\r\n\r\n2\r\n{}XX0\r\n\r\n`, status: 400, code: "malformed_request" },
  { name: "Transfer-Encoding other than chunked", request: `${JSON_POST}Transfer-Encoding: gzip\r\n\r\n{}`, status: 400, code: "malformed_request" },
  { name: "chunked not last in Transfer-Encoding", request: `${JSON_POST}Transfer-Encoding: chunked, gzip\r\n\r\n2\r\n{}\r\n0\r\n\r\n`, status: 400, code: "malformed_request" },
  {
    name: "chunk extensions over 16 KB",
    request: `${JSON_POST}Transfer-Encoding: chunked\r\n\r\n2;ext=${"a".repeat(20_000)}\r\n{}\r\n0\r\n\r\n`,
    status: 413,
    code: "payload_too_large",
  },
  // The request line
  { name: "invalid UTF-8 in the path", request: bytes("GET /api/v1/public/config/", [0xff, 0xfe], ` HTTP/1.1\r\n${HOST}\r\n`), status: 400, code: "malformed_request" },
  { name: "invalid UTF-8 in the query", request: bytes("GET /healthz?q=", [0xc3, 0x28], ` HTTP/1.1\r\n${HOST}\r\n`), status: 400, code: "malformed_request" },
  { name: "a NUL byte in the path", request: bytes("GET /health", [0], `z HTTP/1.1\r\n${HOST}\r\n`), status: 400, code: "malformed_request" },
  { name: "a path without a leading slash", request: `GET healthz HTTP/1.1\r\n${HOST}\r\n`, status: 400, code: "malformed_request" },
  { name: "an unknown method", request: `FOO /healthz HTTP/1.1\r\n${HOST}\r\n`, status: 400, code: "malformed_request" },
  { name: "a lower-case method", request: `get /healthz HTTP/1.1\r\n${HOST}\r\n`, status: 400, code: "malformed_request" },
  { name: "an unknown HTTP version", request: `GET /healthz HTTP/9.9\r\n${HOST}\r\n`, status: 400, code: "malformed_request" },
  { name: "a bare LF line ending", request: `GET /healthz HTTP/1.1\n${HOST}\n`, status: 400, code: "malformed_request" },
  { name: "a TLS handshake on the plain port", request: bytes([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03]), status: 400, code: "malformed_request" },
  { name: "an HTTP/2 prior-knowledge preface", request: "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", status: 400, code: "malformed_request" },
  { name: "CONNECT to another host", request: `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`, status: 400, code: "malformed_request" },
  { name: "a request line over 16 KB", request: `GET /healthz?q=${"a".repeat(20_000)} HTTP/1.1\r\n${HOST}\r\n`, status: 414, code: "uri_too_long" },
  // Headers
  { name: "a NUL byte in a header value", request: bytes(`GET /healthz HTTP/1.1\r\n${HOST}X-Note: a`, [0], "b\r\n\r\n"), status: 400, code: "malformed_request" },
  { name: "a non-ASCII byte in a header name", request: bytes(`GET /healthz HTTP/1.1\r\n${HOST}X-`, [0xc3, 0xa9], ": a\r\n\r\n"), status: 400, code: "malformed_request" },
  { name: "a space in a header name", request: `GET /healthz HTTP/1.1\r\n${HOST}X Note: a\r\n\r\n`, status: 400, code: "malformed_request" },
  { name: "a space before a header colon", request: `GET /healthz HTTP/1.1\r\n${HOST}X-Note : a\r\n\r\n`, status: 400, code: "malformed_request" },
  { name: "a folded header line", request: `GET /healthz HTTP/1.1\r\n${HOST}X-Note: a\r\n b\r\n\r\n`, status: 400, code: "malformed_request" },
  { name: "a header line without a colon", request: `GET /healthz HTTP/1.1\r\n${HOST}X-Note\r\n\r\n`, status: 400, code: "malformed_request" },
  { name: "a control character in X-User-Token", request: `GET /healthz HTTP/1.1\r\n${HOST}X-User-Token: ab\x01cd\r\n\r\n`, status: 400, code: "invalid_user_token" },
  { name: "DEL in X-User-Token", request: `GET /healthz HTTP/1.1\r\n${HOST}x-user-token: ab\x7fcd\r\n\r\n`, status: 400, code: "invalid_user_token" },
  { name: "a lone CR in X-User-Token", request: `GET /healthz HTTP/1.1\r\n${HOST}X-User-Token: ab\rcd\r\n\r\n`, status: 400, code: "invalid_user_token" },
  { name: "one header over 16 KB", request: `GET /healthz HTTP/1.1\r\n${HOST}X-Note: ${"a".repeat(20_000)}\r\n\r\n`, status: 431, code: "headers_too_large" },
  {
    name: "headers over 16 KB in all",
    request: `GET /healthz HTTP/1.1\r\n${HOST}${Array.from({ length: 2000 }, (_, i) => `X-H${i}: value\r\n`).join("")}\r\n`,
    status: 431,
    code: "headers_too_large",
  },
  { name: "an HTTP/1.1 request without Host", request: "GET /healthz HTTP/1.1\r\n\r\n", status: 400, code: "malformed_request" },
  { name: "a head cut short", request: `GET /healthz HTTP/1.1\r\n${HOST}X-Note: a`, status: 400, code: "malformed_request" },
  { name: "an Expect other than 100-continue", request: `${JSON_POST}Expect: teapot\r\nContent-Length: 2\r\n\r\n{}`, status: 417, code: "expectation_failed" },
  // Refused after parsing, by the framework's URL and body handling
  { name: "broken percent-encoding in the path", request: `GET /api/v1/public/config/%ff HTTP/1.1\r\n${HOST}\r\n`, status: 400, code: "malformed_request", closes: false },
  {
    name: "a path segment over 1,000 characters",
    request: `GET /api/v1/public/config/${"a".repeat(1200)} HTTP/1.1\r\n${HOST}\r\n`,
    status: 414,
    code: "uri_too_long",
    closes: false,
  },
  {
    name: "a gzip Content-Encoding",
    request: `${JSON_POST}Content-Encoding: gzip\r\nContent-Length: 2\r\n\r\n{}`,
    status: 415,
    code: "unsupported_content_encoding",
    closes: false,
  },
];

describe("answers the HTTP parser and framework refuse", () => {
  let t: TestApp;
  let port = 0;
  beforeAll(async () => {
    t = await createTestApp("sqlite");
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t.close());

  it.each(families)("answers $name with $status $code in the envelope", async ({ request, status, code, closes = true, keepWriting = false }) => {
    const answer = await exchange(port, request, !keepWriting);
    expect(answer.status).toBe(status);
    expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(Number(answer.headers.get("content-length"))).toBe(answer.body.length);
    const body = JSON.parse(answer.body.toString("utf8")) as Record<string, unknown>;
    expect(body.code).toBe(code);
    expect(Object.keys(ErrorCodes)).toContain(body.code);
    expect(ErrorCodes[code].status).toBe(status);
    expect(typeof body.error).toBe("string");
    expect(Object.keys(body).filter((key) => !["error", "code", "details"].includes(key))).toEqual([]);
    expect(answer.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    expect(answer.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    if (closes) expect(answer.headers.get("connection")?.toLowerCase()).toBe("close");
    expect(answer.closedByServer).toBe(true);
  });

  it("still serves a well-formed request on the same server", async () => {
    const answer = await exchange(port, `GET /healthz HTTP/1.1\r\n${HOST}Connection: close\r\n\r\n`, false);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString("utf8"))).toEqual({ status: "ok" });
  });

  it("lets the answer to a pipelined good request finish, then closes instead of answering the bad one after it", async () => {
    const raw = await new Promise<string>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      let received = "";
      socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
      socket.on("error", () => {});
      socket.on("close", () => resolve(received));
      socket.end(`GET /healthz HTTP/1.1\r\n${HOST}\r\nFOO /healthz HTTP/1.1\r\n${HOST}\r\n`);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 200 /);
    expect(raw).toContain('{"status":"ok"}');
    expect(raw).not.toContain("HTTP/1.1 400");
  });

  it("answers a plain OPTIONS without CORS request headers with no text/plain error", async () => {
    const answer = await exchange(port, `OPTIONS /api/v1/feedback HTTP/1.1\r\n${HOST}Connection: close\r\n\r\n`, false);
    expect(answer.status).toBeLessThan(400);
    expect(answer.headers.get("content-type") ?? "").not.toContain("text/plain");
  });

  it("sends HSTS on parser refusals when the instance is served over https", async () => {
    const https = await createTestApp("sqlite", { publicUrl: "https://feedback.example.com" });
    try {
      await https.app.listen({ port: 0, host: "127.0.0.1" });
      const answer = await exchange((https.app.server.address() as net.AddressInfo).port, `GET /healthz HTTP/1.1\r\n${HOST}X-Note: a\0\r\n\r\n`, true);
      expect(answer.status).toBe(400);
      expect(answer.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    } finally {
      await https.close();
    }
  });
});
