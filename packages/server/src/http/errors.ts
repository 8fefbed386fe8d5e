import { ErrorCodes, type ErrorBody, type ErrorCode } from "@tidings/protocol";

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
