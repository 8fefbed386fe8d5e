import escapeHtml from "escape-html";
import type { FastifyRequest } from "fastify";
import { lookupPublicApp } from "../apps/public-app.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import { HTML_PAGE } from "../http/openapi.js";
import { html, wantsHtml, wantsJsonOnly } from "../http/pages.js";
import type { App } from "../http/types.js";
import { interstitial, page } from "../mail/html.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { errors, Params, tags, TokenQuery } from "./public-schemas.js";

/** The token from `?token=` (wins), a JSON `{token}` or a form field. */
export function tokenOf(request: FastifyRequest): string | undefined {
  const query = (request.query as { token?: string }).token;
  if (query !== undefined && query !== "") return query;
  const body = request.body as { token?: unknown } | undefined;
  return typeof body?.token === "string" && body.token !== "" ? body.token : undefined;
}

/**
 * The GET of a mailed link: a page whose button POSTs the token; JSON-only clients get 405. On a private app it shows only for a token that
 * `opensPrivate` accepts (leaving must stay possible); anything else answers as an unknown app.
 */
export const interstitialRoute = (
  app: App,
  ctx: Context,
  path: string,
  title: string,
  explanation: string,
  button: string,
  missing: { message: string; code: "invalid_confirmation_token" | "invalid_unsubscribe_token" },
  opensPrivate: (appId: string, token: string) => Promise<boolean> = () => Promise.resolve(false),
) =>
  app.get(
    path,
    {
      schema: {
        tags,
        summary: `${title}: a page that POSTs the token (changes nothing)`,
        params: Params,
        querystring: TokenQuery,
        response: errors,
        documentedAnswers: { 200: { description: "The page with the button", content: HTML_PAGE } },
      },
    },
    async (request, reply) => {
      await enforceRateLimit(ctx, request, "public_write");
      const found = await lookupPublicApp(ctx, request.params.appKey);
      const token = request.query.token;
      if (found === undefined) throw new ApiError("app_not_found");
      if (found.app.allowPublic !== 1 && !(token !== undefined && token !== "" && (await opensPrivate(found.app.id, token)))) throw new ApiError("app_not_found");
      if (wantsJsonOnly(request)) throw new ApiError("post_required", { headers: { Allow: "POST" } });
      if (token === undefined || token === "") {
        if (!wantsHtml(request)) throw new ApiError(missing.code, { message: missing.message });
        return html(reply, 400, page(title, `<p>${escapeHtml(missing.message)}</p>`));
      }
      return html(reply, 200, interstitial(title, explanation, request.url, token, button));
    },
  );
