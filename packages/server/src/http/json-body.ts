import type { FastifyInstance } from "fastify";
import { ApiError } from "./errors.js";

/**
 * Only JSON bodies are accepted (multipart arrives with the upload routes). Fastify's own
 * parser (prototype-poisoning safe) does the work; NUL characters are refused up front
 * because PostgreSQL cannot store them and SQLite would, so both engines answer alike
 * (400 `invalid_text`). A body the parser refuses for a `__proto__` key (or `constructor.prototype`)
 * is well-formed JSON: still 400 `invalid_json`, but saying which keys are refused.
 */
export function acceptJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser(["text/plain", "application/json"]);
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.includes("\\u0000")) {
      done(new ApiError("invalid_text"), undefined);
      return;
    }
    parseJson(request, text, (error, parsed) => {
      // Fastify's parser drops its reason: text that JSON.parse reads was refused for its keys.
      if (error !== null && isWellFormed(text)) {
        done(new ApiError("invalid_json", { message: "Keys named __proto__, and prototype inside constructor, are not accepted" }), undefined);
        return;
      }
      done(error, parsed);
    });
  });
}

function isWellFormed(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
