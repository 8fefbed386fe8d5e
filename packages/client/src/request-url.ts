import type { HttpRequest } from "./http-exchange.js";

/** The address of a request: the base URL, the path and the query, a list repeating its name per item. */
export function buildUrl(baseUrl: string, path: string, query: HttpRequest["query"]): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    for (const one of typeof value === "object" ? value : [value]) params.append(name, String(one));
  }
  const search = params.toString();
  return `${baseUrl}${path}${search === "" ? "" : `?${search}`}`;
}
