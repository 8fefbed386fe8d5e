import AjvModule, { type FormatDefinition, type Options } from "ajv";
import addFormats from "ajv-formats";
import type { FastifyInstance, FastifySchema } from "fastify";
import fastJsonStringify from "fast-json-stringify";

// ajv is CommonJS: under NodeNext its class is the module's `default`.
const Ajv = AjvModule.default;
const COMMON: Options = { allErrors: true, removeAdditional: true, useDefaults: true, strict: false };

/**
 * `format: "date-time"` narrowed to the RFC 3339 date-times JavaScript can read: a leap second
 * (`23:59:60`) passes ajv-formats' check, but `new Date` cannot hold it, so handlers that
 * normalise with `toISOString()` threw (500) instead of refusing.
 */
function readableDateTimes(ajv: InstanceType<typeof Ajv>): void {
  const rfc3339 = ajv.formats["date-time"] as FormatDefinition<string>;
  ajv.addFormat("date-time", {
    type: "string",
    validate: (value: string) => (rfc3339.validate as (v: string) => boolean)(value) && Number.isFinite(Date.parse(value)),
    ...(rfc3339.compare === undefined ? {} : { compare: rfc3339.compare }),
  });
}

/** An ajv with the formats every schema here may name. */
function ajvWith(options: Options): InstanceType<typeof Ajv> {
  const ajv = new Ajv({ ...COMMON, ...options });
  addFormats.default(ajv);
  readableDateTimes(ajv);
  return ajv;
}

let shared: { body: InstanceType<typeof Ajv>; text: InstanceType<typeof Ajv> } | undefined;
const serializers = new WeakMap<object, (data: unknown) => string>();

/**
 * Two validators: bodies are checked as sent (no type coercion: with coercion `null` for a
 * nullable integer became `0`, and `"7"` for a number slipped through), while querystrings,
 * params and headers, which arrive as text, are coerced to the schema's types.
 *
 * Every app of the process shares them, and the response serializers, compiled once per schema:
 * the route schemas are module constants, so a second app (a test's, a second instance in one
 * process) reuses what the first compiled. Compiling them per app took about 0.55 s of each app's
 * start, more than most test files spend in their tests.
 */
export function installValidators(app: FastifyInstance): void {
  shared ??= { body: ajvWith({ coerceTypes: false }), text: ajvWith({ coerceTypes: "array" }) };
  const { body, text } = shared;
  // ajv keeps what it compiled keyed by the schema object.
  app.setValidatorCompiler<FastifySchema>(({ schema, httpPart }) => (httpPart === "body" ? body : text).compile(schema as object));
  // As Fastify's default serializer compiler builds them (this server adds no shared schemas).
  app.setSerializerCompiler(({ schema }) => {
    let serialize = serializers.get(schema);
    if (serialize === undefined) {
      serialize = fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0]) as (data: unknown) => string;
      serializers.set(schema, serialize);
    }
    return serialize;
  });
}
