import fc from "fast-check";
import type { Fixtures } from "./fixtures.js";
import { fieldsOf, isDateTime, isNumeric, type JsonSchema, type RouteSpec } from "./openapi-walker.js";
import { encode, pathArb, validAuth, type FuzzRequest } from "./requests.js";
import { ODD_DATE_TIMES, RawJson, toJsonText, validFromSchema } from "./values.js";

/** Numbers every numeric field is tried with, whatever the random runs draw. */
const EDGE_NUMBER_TEXTS = ["Infinity", "-Infinity", "1e309", "99999999999999999999999", "9007199254740993", "-1", "1.5", "NaN", "", "abc"];
const EDGE_NUMBER_TOKENS = ["1e999", "-1e999", "123456789012345678901234567890", "9007199254740993", "-1", "1.5", "null", "\"7\"", "true"];

function setAt(root: unknown, steps: readonly string[], value: unknown): boolean {
  let node = root;
  for (const [i, step] of steps.entries()) {
    const last = i === steps.length - 1;
    if (step === "[]") {
      if (!Array.isArray(node) || node.length === 0) return false;
      if (last) node[0] = value;
      else node = node[0];
      continue;
    }
    if (node === null || typeof node !== "object") return false;
    if (last) (node as Record<string, unknown>)[step] = value;
    else node = (node as Record<string, unknown>)[step];
  }
  return true;
}

/**
 * Keys every plain object inherits, tried as an unknown query parameter and body key: the class
 * of the 500 a body key `toString` once caused (a map of field names built on a plain object).
 */
const INHERITED_KEYS = ["toString", "constructor", "__proto__"];

/** The values each kind of field is tried with, as query text and as a JSON token. */
const EDGES: ReadonlyArray<{ wanted: (schema: JsonSchema) => boolean; texts: readonly string[]; tokens: readonly string[] }> = [
  { wanted: isNumeric, texts: EDGE_NUMBER_TEXTS, tokens: EDGE_NUMBER_TOKENS },
  { wanted: isDateTime, texts: ODD_DATE_TIMES, tokens: ODD_DATE_TIMES.map((d) => JSON.stringify(d)) },
];

/**
 * One request per numeric or date-time field and edge value (non-finite, past 2^53 or 2^63,
 * negative, fractional, not a number; leap seconds and other RFC 3339 spellings), the rest of
 * the request valid: the classes of the huge-offset and leap-second 500s. Then one request per
 * {@link INHERITED_KEYS} name, as a query parameter and as a key of an object body.
 */
export function edgeRequests(route: RouteSpec, fixtures: Fixtures, seed: number): FuzzRequest[] {
  const hints = fixtures.hints;
  const [base] = fc.sample(
    fc.tuple(pathArb(route, hints, false), validAuth(route, fixtures), route.body === undefined ? fc.constant(undefined) : validFromSchema(route.body, hints)),
    { seed, numRuns: 1 },
  );
  if (base === undefined) return [];
  const [path, auth, body] = base;
  const requests: FuzzRequest[] = [];
  for (const { wanted, texts, tokens } of EDGES) {
    for (const param of route.query.filter((p) => wanted(p.schema))) {
      for (const text of texts) {
        requests.push({ method: route.method, url: `${path}?${encode(param.name)}=${encode(text)}`, headers: auth.headers, label: `edge ${param.name}=${text}` });
      }
    }
    if (route.body === undefined) continue;
    for (const { where } of fieldsOf(route, wanted).filter((f) => f.where.startsWith("body"))) {
      const steps = where.replace(/\|\d+/g, "").replace(/\[\]/g, ".[]").split(".").slice(1);
      for (const token of tokens) {
        const copy = structuredClone(body) as unknown;
        if (steps.length === 0 || !setAt(copy, steps, new RawJson(token))) continue;
        requests.push({
          method: route.method,
          url: path,
          headers: { ...auth.headers, "content-type": "application/json" },
          payload: toJsonText(copy),
          label: `edge ${where}=${token}`,
        });
      }
    }
  }
  for (const key of INHERITED_KEYS) {
    requests.push({ method: route.method, url: `${path}?${encode(key)}=1`, headers: auth.headers, label: `edge query ${key}` });
    if (body === null || typeof body !== "object" || Array.isArray(body)) continue;
    const copy = structuredClone(body) as Record<string, unknown>;
    // Defined, not assigned: assigning `__proto__` would set the prototype instead of a key.
    Object.defineProperty(copy, key, { value: 1, enumerable: true, configurable: true, writable: true });
    requests.push({ method: route.method, url: path, headers: { ...auth.headers, "content-type": "application/json" }, payload: toJsonText(copy), label: `edge body key ${key}` });
  }
  return requests;
}
