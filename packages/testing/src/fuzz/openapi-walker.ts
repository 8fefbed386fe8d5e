/** A JSON schema as it appears in the OpenAPI document (TypeBox output, refs resolved). */
export type JsonSchema = { [key: string]: unknown };

/** One query, path or header parameter of an operation. */
export interface ParamSpec {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

/** What a fuzzer needs to know about one operation of the document. */
export interface RouteSpec {
  method: string;
  /** The OpenAPI path template, e.g. `/api/v1/console/workspaces/{wsId}`. */
  path: string;
  /** Console routes answer only with a bearer token or a session. */
  secured: boolean;
  pathParams: ParamSpec[];
  query: ParamSpec[];
  headers: ParamSpec[];
  /** The JSON body schema, when the operation declares one. */
  body: JsonSchema | undefined;
  bodyRequired: boolean;
}

interface OpenApiDocument {
  paths?: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

interface OpenApiOperation {
  parameters?: Array<{ in: string; name: string; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  security?: unknown[];
}

const METHODS = new Set(["get", "post", "put", "patch", "delete"]);

/** Replaces `{$ref: "#/components/schemas/X"}` by the schema it names, recursively. */
export function resolveRefs(schema: unknown, doc: OpenApiDocument, seen: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(schema)) return schema.map((item) => resolveRefs(item, doc, seen));
  if (schema === null || typeof schema !== "object") return schema;
  const ref = (schema as JsonSchema).$ref;
  if (typeof ref === "string") {
    const name = ref.replace(/^#\/components\/schemas\//, "");
    const target = doc.components?.schemas?.[name];
    if (target === undefined || seen.has(name)) return {};
    return resolveRefs(target, doc, new Set([...seen, name]));
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, resolveRefs(value, doc, seen)]));
}

/**
 * Every operation of an OpenAPI 3 document with its parameters and JSON body.
 *
 * @example
 * ```ts
 * const routes = routesOf(app.swagger());
 * routes.find((r) => r.method === "GET" && r.path === "/healthz");
 * ```
 */
export function routesOf(document: unknown): RouteSpec[] {
  const doc = document as OpenApiDocument;
  const routes: RouteSpec[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const params = (where: string): ParamSpec[] =>
        (operation.parameters ?? [])
          .filter((p) => p.in === where)
          .map((p) => ({ name: p.name, required: p.required === true || where === "path", schema: resolveRefs(p.schema ?? {}, doc) as JsonSchema }));
      const json = operation.requestBody?.content?.["application/json"]?.schema;
      routes.push({
        method: method.toUpperCase(),
        path,
        secured: (operation.security ?? []).length > 0,
        pathParams: params("path"),
        query: params("query"),
        headers: params("header"),
        body: json === undefined ? undefined : (resolveRefs(json, doc) as JsonSchema),
        bodyRequired: operation.requestBody?.required === true,
      });
    }
  }
  return routes;
}

/** A field somewhere in a request schema, with where it sits. */
export interface SchemaField {
  /** `query:offset`, `body.files[].size`, `body.mrr|0` (a branch of anyOf)… */
  where: string;
  schema: JsonSchema;
}

function typesOf(schema: JsonSchema): string[] {
  const type = schema.type;
  return Array.isArray(type) ? (type as string[]) : typeof type === "string" ? [type] : [];
}

function collect(schema: unknown, where: string, wanted: (s: JsonSchema) => boolean, out: SchemaField[]): void {
  if (schema === null || typeof schema !== "object") return;
  const s = schema as JsonSchema;
  if (wanted(s)) out.push({ where, schema: s });
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const list = s[key];
    if (Array.isArray(list)) list.forEach((sub, i) => collect(sub, `${where}|${i}`, wanted, out));
  }
  const properties = s.properties;
  if (properties !== null && typeof properties === "object") {
    for (const [name, sub] of Object.entries(properties)) collect(sub, `${where}.${name}`, wanted, out);
  }
  if (s.items !== undefined) collect(s.items, `${where}[]`, wanted, out);
  if (s.additionalProperties !== null && typeof s.additionalProperties === "object") collect(s.additionalProperties, `${where}{}`, wanted, out);
}

/** Every field of `route`'s parameters and body (nested ones too) whose schema `wanted` picks. */
export function fieldsOf(route: RouteSpec, wanted: (schema: JsonSchema) => boolean): SchemaField[] {
  const out: SchemaField[] = [];
  for (const [where, list] of [["path", route.pathParams], ["query", route.query], ["header", route.headers]] as const) {
    for (const param of list) collect(param.schema, `${where}:${param.name}`, wanted, out);
  }
  if (route.body !== undefined) collect(route.body, "body", wanted, out);
  return out;
}

/** Whether a schema is a number or an integer. */
export const isNumeric = (schema: JsonSchema): boolean => typesOf(schema).some((t) => t === "integer" || t === "number");

/** Whether a schema is an RFC 3339 date-time string. */
export const isDateTime = (schema: JsonSchema): boolean => typesOf(schema).includes("string") && schema.format === "date-time";

/** Every number or integer a client may send to `route`: parameters and body, nested ones too. */
export function numericFields(route: RouteSpec): SchemaField[] {
  return fieldsOf(route, isNumeric);
}
