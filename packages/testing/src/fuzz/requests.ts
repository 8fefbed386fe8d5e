import fc from "fast-check";
import { png } from "../uploads-kit.js";
import { goodMultipart, junkBody, multipartArb, type Body } from "./bodies.js";
import type { Fixtures } from "./fixtures.js";
import { isNumeric, type ParamSpec, type RouteSpec } from "./openapi-walker.js";
import { RawJson, extraKey, mutate, mutation, oddNumberText, oddString, oddValue, toJsonText, validFromSchema, type Hints } from "./values.js";

/** One request as `app.inject` takes it, with a short label of how it was made. */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  label: string;
}

/** Percent-encodes the UTF-8 bytes of `text` (lone surrogates become U+FFFD, as a browser sends them). */
export function encode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Escapes and byte runs no encoder produces: invalid UTF-8, stray `%`, NUL. */
const rawUrlJunk = fc.constantFrom("%", "%2", "%zz", "%%", "%00", "%ED%A0%80", "%C0%AF", "%FF%FE", "%F4%90%80%80", "%E2%80%AE", "..", "%2e%2e%2f", "%2F", "+", "&", "=", "#", ";", "[]", "[0]");

/** A header value Node lets through: the UTF-8 bytes of `text` read as latin1, controls dropped. */
export function headerValue(text: string): string {
  const latin1 = Buffer.from(text, "utf8").toString("latin1");
  return [...latin1].filter((c) => c === "\t" || (c >= " " && c !== "\x7f")).join("");
}

function hintFor(hints: Hints, route: RouteSpec, name: string): readonly string[] | undefined {
  if (name === "id") {
    const segments = route.path.split("/");
    return hints[`${segments[segments.indexOf("{id}") - 1] ?? ""}/id`];
  }
  return hints[name];
}

/** Text of a parameter value: arrays become repeated parameters. */
function paramTexts(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(paramTexts);
  if (value instanceof RawJson) return [value.text];
  if (value === null || value === undefined) return [""];
  return [typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value)];
}

const validPathValue = (route: RouteSpec, hints: Hints, param: ParamSpec): fc.Arbitrary<string> => {
  const known = hintFor(hints, route, param.name);
  if (known !== undefined && known.length > 0) return fc.constantFrom(...known.map(encode));
  return validFromSchema(param.schema, {}, param.name).map((v) => encode(String(v)));
};

const spoiledPathValue = (param: ParamSpec): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 2, arbitrary: validFromSchema(param.schema, {}, param.name).map((v) => encode(String(v))) },
    { weight: 3, arbitrary: oddString.map(encode) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom("", "abc"), rawUrlJunk).map(([a, b]) => a + b) },
    { weight: 1, arbitrary: fc.constantFrom("x".repeat(1001), "x".repeat(5000), encode("é".repeat(600))) },
  );

/** The route's path with known ids, or with one or more parameters spoiled. */
export const pathArb = (route: RouteSpec, hints: Hints, spoil: boolean): fc.Arbitrary<string> => {
  const values = route.pathParams.map((param) =>
    spoil ? fc.oneof(validPathValue(route, hints, param), spoiledPathValue(param)) : validPathValue(route, hints, param),
  );
  return fc.tuple(...values).map((texts) => route.pathParams.reduce((p, param, i) => p.replace(`{${param.name}}`, texts[i]!), route.path));
};

type Query = Array<[string, string]>;

function validQuery(route: RouteSpec, hints: Hints): fc.Arbitrary<Query> {
  const entries = route.query.map((param) => {
    const known = hintFor(hints, route, param.name);
    const value = validFromSchema(param.schema, known === undefined ? {} : { [param.name]: known }, param.name).map(paramTexts);
    return param.required ? value : fc.option(value, { nil: undefined, freq: 2 });
  });
  return fc.tuple(...entries).map((values) =>
    values.flatMap((texts, i) => (texts === undefined ? [] : texts.map((text): [string, string] => [route.query[i]!.name, text]))),
  );
}

const queryMutation = (route: RouteSpec): fc.Arbitrary<(q: Query) => Query> => {
  const names = route.query.map((p) => p.name);
  const numeric = route.query.filter((p) => isNumeric(p.schema)).map((p) => p.name);
  const name = names.length > 0 ? fc.oneof(fc.constantFrom(...names), extraKey) : extraKey;
  const oddText = fc.oneof(oddNumberText, oddString);
  // Numbers are where engines differ most (binding, overflow): their parameters get extra turns.
  const numericEdits =
    numeric.length === 0 ? [] : [fc.tuple(fc.constantFrom(...numeric), oddNumberText).map(([n, v]) => (q: Query) => [...q.filter(([k]) => k !== n), [n, v]] as Query)];
  return fc.oneof(
    ...numericEdits.map((arbitrary) => ({ weight: 6, arbitrary })),
    { weight: 1, arbitrary: fc.tuple(name, oddText).map(([n, v]) => (q: Query) => [...q.filter(([k]) => k !== n), [n, v]] as Query) },
    { weight: 1, arbitrary: fc.tuple(name, oddText, oddText).map(([n, a, b]) => (q: Query) => [...q, [n, a], [n, b]] as Query) },
    { weight: 1, arbitrary: fc.tuple(extraKey, oddValue).map(([n, v]) => (q: Query) => [...q, [n, paramTexts(v).join(",")]] as Query) },
    { weight: 1, arbitrary: fc.nat().map((at) => (q: Query) => q.filter((_, i) => i !== at % Math.max(1, q.length))) },
  );
};

function queryText(q: Query, junk: string | null): string {
  const text = q.map(([k, v]) => `${encode(k)}=${encode(v)}`).join("&");
  const all = junk === null ? text : `${text}${text === "" ? "" : "&"}${junk}`;
  return all === "" ? "" : `?${all}`;
}

const spoiledQuery = (route: RouteSpec, hints: Hints): fc.Arbitrary<{ text: string; how: string }> =>
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc
        .tuple(validQuery(route, hints), fc.array(queryMutation(route), { minLength: 1, maxLength: 3 }))
        .map(([q, ms]) => ({ text: queryText(ms.reduce((acc, m) => m(acc), q), null), how: "query mutated" })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(validQuery(route, hints), fc.oneof(rawUrlJunk, fc.tuple(oddString, rawUrlJunk).map(([a, b]) => `${encode(a)}=${b}`)))
        .map(([q, junk]) => ({ text: queryText(q, junk), how: "query raw junk" })),
    },
  );

const validBody = (route: RouteSpec, hints: Hints): fc.Arbitrary<Body> => {
  if (route.body !== undefined) {
    return validFromSchema(route.body, hints).map((v) => ({ payload: toJsonText(v), contentType: "application/json", how: "body ok" }));
  }
  if (route.method === "GET" || route.method === "DELETE") return fc.constant({ payload: undefined, contentType: undefined, how: "no body" });
  return fc.oneof(fc.constant({ payload: undefined, contentType: undefined, how: "no body" }), goodMultipart(hints));
};

const spoiledBody = (route: RouteSpec, hints: Hints): fc.Arbitrary<Body> => {
  if (route.body === undefined) {
    return fc.oneof(
      { weight: 4, arbitrary: multipartArb(hints) },
      { weight: 2, arbitrary: junkBody },
      {
        weight: 1,
        arbitrary: fc.tuple(fc.constantFrom(png(64), Buffer.alloc(0), Buffer.from("MZ")), fc.constantFrom("image/png", "application/octet-stream", "text/plain")).map(
          ([payload, contentType]) => ({ payload, contentType, how: "raw bytes" }),
        ),
      },
    );
  }
  const schema = route.body;
  return fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .tuple(validFromSchema(schema, hints), fc.array(mutation, { minLength: 1, maxLength: 3 }))
        .map(([v, ms]) => ({ payload: toJsonText(mutate(v, ms)), contentType: "application/json", how: "body mutated" })),
    },
    { weight: 2, arbitrary: junkBody },
    { weight: 1, arbitrary: fc.constant({ payload: undefined, contentType: undefined, how: "no body" }) },
  );
};

/** Headers anyone may send; values are odd but within what Node lets through. */
const extraHeaders = (fixtures: Fixtures): fc.Arbitrary<Record<string, string>> => {
  const names = fc.constantFrom(
    "x-user-token", "x-user-hash", "x-app-key", "x-request-id", "if-none-match", "accept", "accept-language", "origin", "x-forwarded-for",
    "cookie", "x-csrf-token", "x-upload-session-token", "authorization", "content-encoding", "range", "x-http-method-override", "user-agent",
  );
  const values = fc.oneof(
    { weight: 3, arbitrary: oddString.map(headerValue) },
    { weight: 1, arbitrary: fc.constantFrom(...(fixtures.hints.appKey ?? []), fixtures.user["x-user-token"], fixtures.user["x-user-hash"], `Bearer ${fixtures.sessionToken}`, "*", "W/\"x\"", "gzip", "bytes=0-1") },
  );
  return fc.dictionary(names, values, { maxKeys: 3 }).map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== "")));
};

/** The credentials that reach the handler. */
export const validAuth = (route: RouteSpec, fixtures: Fixtures): fc.Arbitrary<{ headers: Record<string, string>; how: string }> => {
  if (route.secured) {
    return fc.oneof(
      { weight: 6, arbitrary: fc.constant({ headers: { authorization: fixtures.consoleAuth.admin }, how: "admin" }) },
      { weight: 1, arbitrary: fc.constant({ headers: { authorization: fixtures.consoleAuth.member }, how: "member" }) },
    );
  }
  if (route.path.includes("/uploads/{uploadId}")) return fc.constant({ headers: { ...fixtures.user, authorization: `Bearer ${fixtures.sessionToken}` }, how: "upload session" });
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant({ headers: { ...fixtures.user }, how: "identified user" }) },
    { weight: 1, arbitrary: fc.constant({ headers: { "x-user-token": fixtures.user["x-user-token"] }, how: "anonymous token" }) },
  );
};

/** No credentials, or broken ones. */
const spoiledAuth = (fixtures: Fixtures): fc.Arbitrary<{ headers: Record<string, string>; how: string }> =>
  fc.oneof(
    fc.constant({ headers: {}, how: "no auth" }),
    fc
      .oneof(
        fc.constantFrom("Bearer", "Bearer ", "Basic YWRtaW46YWRtaW4=", `bearer ${fixtures.consoleAuth.admin.slice(7)}x`, "Bearer tdg_" + "0".repeat(40)),
        oddString.map((s) => `Bearer ${headerValue(s)}`),
      )
      .map((authorization) => ({ headers: { authorization }, how: "bad auth" })),
    oddString.map((s) => ({ headers: { cookie: `tidings_session=${headerValue(s)}` }, how: "bad cookie" })),
    fc.tuple(oddString, oddString).map(([token, hash]) => ({ headers: { "x-user-token": headerValue(token), "x-user-hash": headerValue(hash) }, how: "bad user" })),
  );

/** Which part of a request is spoiled; the others stay valid so the spoiled one reaches its check. */
type Focus = "none" | "path" | "query" | "body" | "auth" | "headers" | "method" | "all";

/**
 * Requests for one route: mostly one part spoiled (path, query, body, credentials or headers)
 * and the rest valid, sometimes all valid, sometimes everything spoiled at once.
 */
export function requestArb(route: RouteSpec, fixtures: Fixtures): fc.Arbitrary<FuzzRequest> {
  const hints = fixtures.hints;
  const focus = fc.oneof(
    { weight: 2, arbitrary: fc.constant<Focus>("none") },
    { weight: route.pathParams.length > 0 ? 2 : 0, arbitrary: fc.constant<Focus>("path") },
    { weight: route.query.length > 0 ? 5 : 1, arbitrary: fc.constant<Focus>("query") },
    { weight: route.body !== undefined ? 6 : route.method === "GET" ? 1 : 4, arbitrary: fc.constant<Focus>("body") },
    { weight: 1, arbitrary: fc.constant<Focus>("auth") },
    { weight: 1, arbitrary: fc.constant<Focus>("headers") },
    { weight: 1, arbitrary: fc.constant<Focus>("method") },
    { weight: 1, arbitrary: fc.constant<Focus>("all") },
  );
  const noQuery = fc.constant({ text: "", how: "query ok" });
  return focus.chain((f) => {
    const spoil = (part: Focus) => f === part || f === "all";
    const method = spoil("method") ? fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD") : fc.constant(route.method);
    const query = spoil("query") ? spoiledQuery(route, hints) : route.query.length === 0 ? noQuery : validQuery(route, hints).map((q) => ({ text: queryText(q, null), how: "query ok" }));
    const body = spoil("body") ? spoiledBody(route, hints) : validBody(route, hints);
    const auth = spoil("auth") ? spoiledAuth(fixtures) : validAuth(route, fixtures);
    const extra = spoil("headers") ? extraHeaders(fixtures) : fc.constant({});
    return fc.tuple(method, pathArb(route, hints, spoil("path")), query, body, auth, extra).map(([m, p, q, b, a, e]) => {
      const headers: Record<string, string> = { ...a.headers, ...e };
      if (b.contentType !== undefined) headers["content-type"] = b.contentType;
      return {
        method: m,
        url: `${p}${q.text}`,
        headers,
        ...(b.payload === undefined ? {} : { payload: b.payload }),
        label: `spoiled ${f}; ${a.how}; ${q.how}; ${b.how}`,
      };
    });
  });
}

/**
 * Requests that follow no route's schema: any method, a known path with segments swapped for
 * junk, dropped or doubled, any query, any body, any headers.
 */
export function randomRequestArb(routes: readonly RouteSpec[], fixtures: Fixtures): fc.Arbitrary<FuzzRequest> {
  const segment = fc.oneof(oddString.map(encode), rawUrlJunk, fc.constantFrom(...(fixtures.hints.appKey ?? ["x"])));
  const path = fc.tuple(fc.constantFrom(...routes.map((r) => r.path)), fc.array(fc.tuple(fc.nat(), fc.constantFrom("swap", "drop", "double"), segment), { maxLength: 2 })).map(
    ([template, edits]) => {
      const segments = template.split("/").map((s) => (s.startsWith("{") ? "x" : s));
      for (const [at, how, junk] of edits) {
        const i = 1 + (at % Math.max(1, segments.length - 1));
        if (how === "swap") segments[i] = junk;
        else if (how === "drop") segments.splice(i, 1);
        else segments.splice(i, 0, segments[i] ?? junk);
      }
      return segments.join("/") || "/";
    },
  );
  const query = fc.array(fc.tuple(extraKey, fc.oneof(oddString, oddNumberText)), { maxLength: 4 }).map((q) => queryText(q, null));
  const body = fc.oneof(junkBody, multipartArb(fixtures.hints), fc.constant({ payload: undefined, contentType: undefined, how: "no body" }));
  const method = fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD");
  const auth = fc.constantFrom<Record<string, string>>({}, { authorization: fixtures.consoleAuth.admin }, fixtures.user);
  return fc.tuple(method, path, query, body, auth, extraHeaders(fixtures)).map(([m, p, q, b, a, extra]) => {
    const headers: Record<string, string> = { ...a, ...extra };
    if (b.contentType !== undefined) headers["content-type"] = b.contentType;
    return { method: m, url: `${p}${q}`, headers, ...(b.payload === undefined ? {} : { payload: b.payload }), label: `random; ${b.how}` };
  });
}
