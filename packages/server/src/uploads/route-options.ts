import { ErrorBodySchema } from "@tidings/protocol";

/** The OpenAPI tag of every upload route. */
export const tags = ["public: uploads"];
/** The refusals every upload route may answer. */
export const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
  413: ErrorBodySchema,
  415: ErrorBodySchema,
  429: ErrorBodySchema,
};

/** Upload routes read their bodies as streams and reserve an Idempotency-Key themselves. */
export const streamed = { idempotency: "stream" as const };
