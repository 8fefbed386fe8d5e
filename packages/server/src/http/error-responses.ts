import { ErrorCodes, type ErrorBody, type ErrorCode } from "@tidings/protocol";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isForeignKeyViolation, isUniqueViolation } from "../db/constraint-violations.js";
import { ApiError } from "./errors.js";
import { validationDetails, type AjvIssue } from "./validation-details.js";

function envelope(code: ErrorCode, message?: string, details?: unknown): ErrorBody {
  const body: ErrorBody = { error: message ?? ErrorCodes[code].message, code };
  if (details !== undefined) body.details = details;
  return body;
}

/**
 * Every `FST_ERR_*` code Fastify 5 can raise while a request is handled, mapped to the registry
 * (its boot-time and programming-error codes answer 500 `internal_error` through the fallback).
 * Validation errors (`FST_ERR_VALIDATION`) carry `validation` and are mapped above this table.
 */
const FASTIFY_CODES: Record<string, { code: ErrorCode; message?: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: "payload_too_large" },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: "unsupported_media_type" },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: "invalid_content_length", message: "Invalid Content-Length header: the body does not match it" },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: "invalid_json" },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: "invalid_json" },
  FST_ERR_BAD_URL: { code: "malformed_request", message: "Malformed HTTP request: the URL holds invalid percent-encoding" },
  FST_ERR_INVALID_URL: { code: "malformed_request", message: "Malformed HTTP request: the URL is not valid" },
  FST_ERR_MAX_PARAM_LENGTH: { code: "uri_too_long" },
  FST_ERR_NOT_FOUND: { code: "not_found" },
  FST_ERR_HANDLER_TIMEOUT: { code: "service_unavailable" },
};

function statusCode(status: number): ErrorCode {
  if (status === 404) return "not_found";
  if (status === 413) return "payload_too_large";
  if (status === 415) return "unsupported_media_type";
  if (status === 429) return "rate_limited";
  if (status === 503) return "service_unavailable";
  if (status === 401) return "unauthorized";
  if (status === 414) return "uri_too_long";
  if (status === 408) return "request_timeout";
  if (status === 417) return "expectation_failed";
  if (status === 431) return "headers_too_large";
  return status === 400 ? "malformed_request" : "validation_failed";
}

/** Maps any thrown error to a status and envelope; never leaks a stack trace. */
export function toErrorResponse(error: FastifyError | ApiError | Error): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  if (error instanceof ApiError) {
    return { status: error.status, body: error.body(), ...(error.options.headers ? { headers: error.options.headers } : {}) };
  }
  const fe = error as FastifyError & { validation?: AjvIssue[]; validationContext?: string };
  if (Array.isArray(fe.validation)) {
    return {
      status: 400,
      body: envelope("validation_failed", undefined, validationDetails(fe.validation, fe.validationContext)),
    };
  }
  const mapped = typeof fe.code === "string" && Object.hasOwn(FASTIFY_CODES, fe.code) ? FASTIFY_CODES[fe.code] : undefined;
  if (mapped !== undefined) return { status: ErrorCodes[mapped.code].status, body: envelope(mapped.code, mapped.message) };
  // Fastify marks a failure of the request stream while it reads the body with 400: the client
  // went away mid-body (ECONNRESET "aborted"). Only then; the same codes from Redis or a vendor are faults.
  if (fe.statusCode === 400 && (fe.code === "ECONNRESET" || fe.code === "ERR_STREAM_PREMATURE_CLOSE")) {
    return { status: 400, body: envelope("malformed_request", "Malformed HTTP request: the body was cut short") };
  }
  if (error instanceof SyntaxError && fe.statusCode === 400) return { status: 400, body: envelope("invalid_json") };
  // Routes check the ids they are sent; this catches the rest (a row deleted meanwhile, a check
  // missed) so the client learns its reference is stale instead of seeing a 500. Nothing was
  // written: the statement failed inside the request's transaction. Logged as a warning.
  if (isForeignKeyViolation(error) && fe.statusCode === undefined) return { status: 409, body: envelope("referenced_record_missing") };
  // Two requests passed a route's "is it free?" check at once and both wrote the same unique key:
  // routes answer the races they expect themselves; this catches the rest. The loser wrote
  // nothing (its transaction rolled back), so a retry sees the winner's row. Logged as a warning.
  if (isUniqueViolation(error) && fe.statusCode === undefined) {
    return { status: 409, body: envelope(isUniqueViolation(error, "slug") ? "slug_taken" : "write_conflict") };
  }
  // PostgreSQL "data exception" (class 22): a value the client sent that the column cannot hold.
  if (typeof fe.code === "string" && /^22[0-9A-Z]{3}$/.test(fe.code) && fe.statusCode === undefined) {
    return { status: 400, body: envelope("validation_failed", "A value cannot be stored as sent") };
  }
  const status = fe.statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) {
    const code = statusCode(status);
    return { status, body: envelope(code, code === "validation_failed" ? "Bad request" : undefined) };
  }
  if (status === 503) return { status, body: envelope("service_unavailable") };
  return { status: 500, body: envelope("internal_error") };
}

/**
 * Fastify's `frameworkErrors` hook: malformed URLs and over-long path segments, refused while
 * routing, before any `onRequest` hook has added the security headers, so they are added here.
 */
export function frameworkErrorHandler(headers: Readonly<Record<string, string>>) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const { status, body } = toErrorResponse(error);
    request.log.info({ code: body.code, status, fastifyCode: error.code }, "request refused by the framework");
    void reply.code(status).header("X-Request-Id", request.id).headers(headers).type("application/json; charset=utf-8").send(body);
  };
}

/** Installs the error and not-found handlers that answer with the registry envelope. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body, headers } = toErrorResponse(error);
    if (status >= 500) request.log.error({ err: error }, "request failed");
    else if (body.code === "referenced_record_missing") request.log.warn({ err: error }, "foreign key violation answered with 409");
    else if (isUniqueViolation(error)) request.log.warn({ err: error }, "unique violation answered with 409");
    else request.log.info({ code: body.code, status }, "request refused");
    if (headers) void reply.headers(headers);
    return reply.code(status).type("application/json; charset=utf-8").send(body);
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).type("application/json; charset=utf-8").send(envelope("not_found")),
  );
}
