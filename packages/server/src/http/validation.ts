import AjvModule, { type FormatDefinition, type Options } from "ajv";
import addFormats from "ajv-formats";
import type { FastifyInstance, FastifySchema } from "fastify";

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

/**
 * Two validators: bodies are checked as sent (no type coercion: with coercion `null` for a
 * nullable integer became `0`, and `"7"` for a number slipped through), while querystrings,
 * params and headers, which arrive as text, are coerced to the schema's types.
 */
export function installValidators(app: FastifyInstance): void {
  const body = new Ajv({ ...COMMON, coerceTypes: false });
  const text = new Ajv({ ...COMMON, coerceTypes: "array" });
  addFormats.default(body);
  addFormats.default(text);
  readableDateTimes(body);
  readableDateTimes(text);
  app.setValidatorCompiler<FastifySchema>(({ schema, httpPart }) =>
    (httpPart === "body" ? body : text).compile(schema as object),
  );
}
