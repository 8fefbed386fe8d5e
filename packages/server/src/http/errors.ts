import { ErrorCodes, type ErrorBody, type ErrorCode, type ValidationDetails } from "@tidings/protocol";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/**
 * A client-facing failure with a registry code. Throw it from any handler; the error handler
 * turns it into the `{error, code, details?}` envelope.
 *
 * @example
 * ```ts
 * throw new ApiError("app_not_found");
 * ```
 */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly options: { message?: string; details?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(options.message ?? ErrorCodes[code].message);
    this.name = "ApiError";
    this.status = ErrorCodes[code].status;
  }

  /** The envelope this error is sent as. */
  body(): ErrorBody {
    const body: ErrorBody = { error: this.message, code: this.code };
    if (this.options.details !== undefined) body.details = this.options.details;
    return body;
  }
}

interface AjvIssue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

/** Turns ajv issues into zod-`flatten()`-shaped details (what the existing SDKs read). */
export function validationDetails(issues: readonly AjvIssue[], context: string | undefined): ValidationDetails {
  const details: ValidationDetails = { formErrors: [], fieldErrors: {} };
  for (const issue of issues) {
    let field = (issue.instancePath ?? "").replace(/^\//, "").replace(/\//g, ".");
    const missing = issue.params?.missingProperty;
    if (issue.keyword === "required" && typeof missing === "string") {
      field = field === "" ? missing : `${field}.${missing}`;
    }
    const message =
      issue.keyword === "required"
        ? "Required"
        : issue.keyword === "additionalProperties"
          ? `Unknown field ${String(issue.params?.additionalProperty ?? "")}`.trim()
          : (issue.message ?? "Invalid value");
    if (field === "") {
      details.formErrors.push(context === undefined || context === "body" ? message : `${context}: ${message}`);
    } else {
      (details.fieldErrors[field] ??= []).push(message);
    }
  }
  return details;
}

function envelope(code: ErrorCode, message?: string, details?: unknown): ErrorBody {
  const body: ErrorBody = { error: message ?? ErrorCodes[code].message, code };
  if (details !== undefined) body.details = details;
  return body;
}

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: "payload_too_large",
  FST_ERR_CTP_INVALID_MEDIA_TYPE: "unsupported_media_type",
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: "invalid_content_length",
  FST_ERR_CTP_EMPTY_JSON_BODY: "invalid_json",
  FST_ERR_CTP_INVALID_JSON_BODY: "invalid_json",
};

function statusCode(status: number): ErrorCode {
  if (status === 404) return "not_found";
  if (status === 413) return "payload_too_large";
  if (status === 415) return "unsupported_media_type";
  if (status === 429) return "rate_limited";
  if (status === 503) return "service_unavailable";
  if (status === 401) return "unauthorized";
  if (status === 414) return "uri_too_long";
  return "validation_failed";
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
  const mapped = fe.code === undefined ? undefined : FASTIFY_CODES[fe.code];
  if (mapped !== undefined) return { status: ErrorCodes[mapped].status, body: envelope(mapped) };
  if (error instanceof SyntaxError && fe.statusCode === 400) return { status: 400, body: envelope("invalid_json") };
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

/** Fastify's `frameworkErrors` hook: malformed URLs and the like get the envelope too. */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const { status, body } = toErrorResponse(error);
  request.log.info({ code: body.code, status, fastifyCode: error.code }, "request refused by the framework");
  void reply.code(status).header("X-Request-Id", request.id).type("application/json; charset=utf-8").send(body);
}

/** Installs the error and not-found handlers that answer with the registry envelope. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body, headers } = toErrorResponse(error);
    if (status >= 500) request.log.error({ err: error }, "request failed");
    else request.log.info({ code: body.code, status }, "request refused");
    if (headers) void reply.headers(headers);
    return reply.code(status).type("application/json; charset=utf-8").send(body);
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).type("application/json; charset=utf-8").send(envelope("not_found")),
  );
}
