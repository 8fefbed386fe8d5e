import { ErrorBodySchema } from "@tidings/protocol";
import type { FastifySchema } from "fastify";
import { HEADER_DOCS, type RouteDescription } from "./openapi.js";

const REQUEST_ID_DOC = {
  type: "string",
  description: "Your id for the request (8–64 of `[A-Za-z0-9._-]`), echoed in the answer's `X-Request-Id` and the logs; a fresh UUID otherwise.",
};

const REFUSAL = { ...ErrorBodySchema, description: "Refused: the error envelope `{error, code?, details?}` (codes in docs/errors.md)" };

function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

/**
 * The description of one route (the `transform` of `@fastify/swagger`; documentation only, the
 * runtime schema is untouched): public unless it names its security, every refusal in the error
 * envelope, the headers it reads as parameters, and a body it reads itself as documented.
 */
export function describeRoute({ schema, url, route }: RouteDescription & { route: { config?: { describe?: (d: RouteDescription) => RouteDescription } } }): RouteDescription {
  if (schema.hide === true) return { schema, url };
  const described = defaults(schema, url);
  return route.config?.describe?.(described) ?? described;
}

function defaults(schema: FastifySchema, url: string): RouteDescription {
  const headers = objectOf(schema.headers);
  const read = Object.fromEntries((schema.readsHeaders ?? []).map((name) => [name, { type: "string", description: HEADER_DOCS[name] }]));
  const { readsHeaders: _read, documentedBody, documentedAnswers, ...rest } = schema;
  const answers = Object.fromEntries(
    Object.entries(documentedAnswers ?? {}).map(([status, answer]) => [
      status,
      { description: answer.description, content: Object.fromEntries(Object.entries(answer.content).map(([type, body]) => [type, { schema: body }])) },
    ]),
  );
  return {
    url,
    schema: {
      ...rest,
      security: schema.security ?? [],
      headers: { type: "object", ...headers, properties: { "X-Request-Id": REQUEST_ID_DOC, ...read, ...objectOf(headers.properties) } },
      response: { ...objectOf(schema.response), ...answers, "4XX": REFUSAL },
      ...(documentedBody === undefined ? {} : { body: { content: Object.fromEntries(Object.entries(documentedBody).map(([type, body]) => [type, { schema: body }])) } }),
    },
  };
}
