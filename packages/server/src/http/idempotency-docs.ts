import { ErrorBodySchema } from "@tidings/protocol";
import type { RouteDescription } from "./openapi.js";
import { objectOf } from "./request-fingerprint.js";

/** The OpenAPI description of the header and of the answers it adds (documentation only: no runtime schema). */
const KEY_HEADER_DOC = {
  type: "string",
  minLength: 1,
  description:
    "Optional. 1–255 printable ASCII characters (a UUID), bare or as the IETF draft's quoted string. A repeat with the same key and body within 24 h replays the first answer (`Idempotent-Replayed: true`) and writes nothing; the same key with another body is 422 `idempotency_key_reused`; while the first is running, 409 `idempotency_key_in_use`. See docs/public-api.md, Idempotency.",
};

/** A route's OpenAPI description with the `Idempotency-Key` header and the 400, 409 and 422 answers it adds. */
export function documentKey({ schema, url }: RouteDescription): RouteDescription {
  const headers = objectOf(schema.headers);
  const response = objectOf(schema.response);
  return {
    url,
    schema: {
      ...schema,
      headers: { type: "object", ...headers, properties: { ...objectOf(headers.properties), "Idempotency-Key": KEY_HEADER_DOC } },
      response: { 400: ErrorBodySchema, 409: ErrorBodySchema, 422: ErrorBodySchema, ...response },
    },
  };
}
