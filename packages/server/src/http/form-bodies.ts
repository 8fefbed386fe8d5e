import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { ApiError } from "./errors.js";
import { multipartFault } from "./multipart-faults.js";

/** Room for a form's text fields; a form post carries a token and a few checkboxes. */
const FORM_BODY_LIMIT = 16 * 1024;

/**
 * Lets the routes of `scope` read form posts as flat objects of text fields, in either encoding
 * HTML forms and mailbox providers use: `application/x-www-form-urlencoded` and
 * `multipart/form-data` (RFC 8058 allows both for a one-click unsubscribe, and providers differ).
 * A multipart form may not carry files (`413 payload_too_large`); a field sent twice becomes an
 * array, which the routes' schemas refuse; a multipart body cut short or without its boundary is
 * `400 malformed_request` (busboy reports it with a plain error, which would otherwise be a 500).
 *
 * @example
 * ```ts
 * await parent.register(async (scope) => {
 *   await readFormBodies(scope);
 *   scope.post("/unsubscribe", handler); // request.body is { token: "…" } for either encoding
 * });
 * ```
 */
export async function readFormBodies(scope: FastifyInstance): Promise<void> {
  scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(typeof body === "string" ? body : body.toString("utf8"))));
  });
  await scope.register(multipart, {
    attachFieldsToBody: "keyValues",
    limits: { files: 0, fields: 32, parts: 32, fieldSize: FORM_BODY_LIMIT },
  });
  // Rethrown, an error goes on to the application's handler, which answers in the envelope.
  scope.setErrorHandler((error, request) => {
    if (request.isMultipart() && multipartFault(error) === "malformed") throw new ApiError("malformed_request", { message: "The multipart body is truncated or malformed" });
    throw error;
  });
}
