import { ErrorCodes, isErrorCode, type ErrorCode } from "@tidings/protocol";
import { errorCodes as fastifyErrorCodes, type FastifyError } from "fastify";
import { describe, expect, it } from "vitest";
import { toErrorResponse } from "./error-responses.js";
import { ApiError } from "./errors.js";

describe("toErrorResponse", () => {
  it("answers an ApiError with its registry status and code", () => {
    expect(toErrorResponse(new ApiError("capability_required"))).toEqual({
      status: 403,
      body: { error: "Your role does not allow this action", code: "capability_required" },
    });
  });

  it("never reveals the message of an unexpected error", () => {
    const { status, body } = toErrorResponse(new Error("password=hunter2 at db.ts:12"));
    expect(status).toBe(500);
    expect(body).toEqual({ error: "Internal server error", code: "internal_error" });
  });
});

describe("toErrorResponse for Fastify's own errors", () => {
  const constructors = Object.entries(fastifyErrorCodes) as [string, new (...args: string[]) => FastifyError][];

  it("gives every FST_ERR_* code a registered code answered with that code's status", () => {
    expect(constructors.length).toBeGreaterThan(50);
    for (const [name, Construct] of constructors) {
      const { status, body } = toErrorResponse(new Construct("a", "b", "c"));
      expect(isErrorCode(body.code ?? ""), name).toBe(true);
      expect(status, name).toBe(ErrorCodes[body.code as ErrorCode].status);
    }
  });

  it("maps the errors Fastify raises while reading and routing a request", () => {
    const codeOf = (name: keyof typeof fastifyErrorCodes) => toErrorResponse(new fastifyErrorCodes[name]("x")).body.code;
    expect(codeOf("FST_ERR_BAD_URL")).toBe("malformed_request");
    expect(codeOf("FST_ERR_MAX_PARAM_LENGTH")).toBe("uri_too_long");
    expect(codeOf("FST_ERR_CTP_INVALID_CONTENT_LENGTH")).toBe("invalid_content_length");
    expect(codeOf("FST_ERR_CTP_BODY_TOO_LARGE")).toBe("payload_too_large");
    expect(codeOf("FST_ERR_CTP_INVALID_MEDIA_TYPE")).toBe("unsupported_media_type");
    expect(codeOf("FST_ERR_CTP_EMPTY_JSON_BODY")).toBe("invalid_json");
    expect(codeOf("FST_ERR_NOT_FOUND")).toBe("not_found");
  });

  it("treats a body stream the client aborted as its mistake, and the same code elsewhere as a fault", () => {
    // What Fastify's body reader passes on when the request stream fails mid-body.
    const aborted = Object.assign(new Error("aborted"), { code: "ECONNRESET", statusCode: 400 });
    expect(toErrorResponse(aborted)).toMatchObject({ status: 400, body: { code: "malformed_request" } });
    const redis = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
    expect(toErrorResponse(redis)).toMatchObject({ status: 500, body: { code: "internal_error" } });
  });
});
