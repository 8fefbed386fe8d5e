/**
 * What went wrong reading a multipart body, told from the errors busboy and @fastify/multipart
 * raise: a limit of the parser's reached (`limit`), a file over its size (`file_too_large`), a
 * body that is not multipart (`not_multipart`), or a body cut short or malformed (`malformed`:
 * no boundary, a truncated part, the client gone mid-body). Busboy's own parse errors are plain
 * `Error`s without a status, which the error handler would answer with a 500.
 */
export type MultipartFault = "limit" | "file_too_large" | "not_multipart" | "malformed";

/** Busboy's and @fastify/multipart's messages for a broken body. */
const MALFORMED = /unexpected end of (form|multipart data)|malformed|boundary|terminated early|premature close|aborted|part header/i;

/**
 * The fault `error` reports while a multipart body is read, or undefined when it is not one the
 * client caused (a failing handler, storage, the database): only call it on errors raised while
 * reading such a body.
 *
 * @example
 * ```ts
 * multipartFault(new Error("Multipart: Boundary not found")); // "malformed"
 * ```
 */
export function multipartFault(error: unknown): MultipartFault | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code === "FST_FILES_LIMIT" || code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT") return "limit";
  if (code === "FST_REQ_FILE_TOO_LARGE") return "file_too_large";
  if (code === "FST_INVALID_MULTIPART_CONTENT_TYPE") return "not_multipart";
  if (code === "FST_PROTO_VIOLATION" || code === "FST_INVALID_JSON_FIELD_ERROR") return "malformed";
  if (code === "ERR_STREAM_PREMATURE_CLOSE" || code === "ECONNRESET" || code === "FST_MP_PREMATURE_CLOSE") return "malformed";
  if (code === undefined && typeof message === "string" && MALFORMED.test(message)) return "malformed";
  return undefined;
}
