import AjvModule, { type Options } from "ajv";
import addFormats from "ajv-formats";
import type { FastifyInstance, FastifySchema } from "fastify";

// ajv is CommonJS: under NodeNext its class is the module's `default`.
const Ajv = AjvModule.default;
const COMMON: Options = { allErrors: true, removeAdditional: true, useDefaults: true, strict: false };

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
  app.setValidatorCompiler<FastifySchema>(({ schema, httpPart }) =>
    (httpPart === "body" ? body : text).compile(schema as object),
  );
}
