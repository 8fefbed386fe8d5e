import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";

/** Room for a form's text fields; a form post carries a token and a few checkboxes. */
const FORM_BODY_LIMIT = 16 * 1024;

/**
 * Lets the routes of `scope` read form posts as flat objects of text fields, in either encoding
 * HTML forms and mailbox providers use: `application/x-www-form-urlencoded` and
 * `multipart/form-data` (RFC 8058 allows both for a one-click unsubscribe, and providers differ).
 * A multipart form may not carry files (`413 payload_too_large`); a field sent twice becomes an
 * array, which the routes' schemas refuse.
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
}
