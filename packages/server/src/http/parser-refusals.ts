import type { IncomingMessage } from "node:http";
import { ErrorCodes, type ErrorBody, type ErrorCode } from "@tidings/protocol";

/** What Node's HTTP parser hands to `clientError`: `HPE_*` codes from llhttp, or a timeout. */
export interface ParserError extends Error {
  code?: string;
  /** llhttp's reason, e.g. "Invalid header value char". */
  reason?: string;
  /** Where in `rawPacket` the parser stopped. */
  bytesParsed?: number;
  /** The chunk the parser was reading when it failed. */
  rawPacket?: Buffer;
}

/** The status and envelope a refused request is answered with. */
export interface Refusal {
  status: number;
  body: ErrorBody;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export function refusal(code: ErrorCode, detail?: string): Refusal {
  const message = ErrorCodes[code].message;
  return { status: ErrorCodes[code].status, body: { error: detail === undefined ? message : `${message}: ${detail}`, code } };
}

/** The bytes the parser read before it stopped, from the chunk it was reading. */
function parsedHead(error: ParserError): Buffer | undefined {
  const packet = error.rawPacket;
  if (!Buffer.isBuffer(packet)) return undefined;
  return packet.subarray(0, Math.min(packet.length, error.bytesParsed ?? packet.length));
}

/** The header whose line the parser stopped in, when it can be read from the chunk. */
function headerAt(error: ParserError): string | undefined {
  const head = parsedHead(error);
  if (head === undefined) return undefined;
  const line = head.subarray(head.lastIndexOf(0x0a) + 1).toString("latin1");
  const name = line.slice(0, line.indexOf(":"));
  return HEADER_NAME.test(name) ? name : undefined;
}

/**
 * Whether the head outgrew its limit while still in the request line: the chunk starts a request
 * and holds no line break before the point of failure. A line split over several reads cannot be
 * told apart from a long header, so it counts as headers.
 */
function requestLineOverflowed(error: ParserError): boolean {
  const head = parsedHead(error);
  return head !== undefined && !head.includes(0x0a) && /^[A-Z]+ /.test(head.subarray(0, 24).toString("latin1"));
}

/**
 * Maps a refusal of Node's HTTP parser to the status and envelope it is answered with.
 * `reading` is the request whose body was being read when the connection ended, if any.
 *
 * @example
 * ```ts
 * clientErrorAnswer(Object.assign(new Error(), { code: "HPE_INVALID_CONTENT_LENGTH" })).status; // 400
 * ```
 */
export function clientErrorAnswer(error: ParserError, reading?: Pick<IncomingMessage, "headers">): Refusal {
  const reason = typeof error.reason === "string" && error.reason !== "" ? error.reason : undefined;
  switch (error.code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return refusal("request_timeout");
    case "HPE_HEADER_OVERFLOW":
      return requestLineOverflowed(error) ? refusal("uri_too_long", "the request line exceeds 16 KB") : refusal("headers_too_large");
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return refusal("payload_too_large", "chunk extensions exceed 16 KB");
    case "HPE_INVALID_CONTENT_LENGTH":
    case "HPE_UNEXPECTED_CONTENT_LENGTH":
      return refusal("invalid_content_length", reason);
    case "HPE_INVALID_TRANSFER_ENCODING":
      if (reason !== undefined && /content-length/i.test(reason)) return refusal("invalid_content_length", reason);
      break;
    case "HPE_INVALID_EOF_STATE":
      if (reading?.headers["content-length"] !== undefined) {
        return refusal("invalid_content_length", "the connection ended before the body reached its Content-Length");
      }
      return refusal("malformed_request", "the connection ended mid-request");
  }
  const header = headerAt(error);
  if (header?.toLowerCase() === "x-user-token") return refusal("invalid_user_token");
  const where = header === undefined ? "" : ` in header ${header}`;
  return refusal("malformed_request", reason === undefined ? undefined : `${reason}${where}`);
}
