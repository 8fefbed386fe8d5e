import escapeHtml from "escape-html";
import type { FastifyReply, FastifyRequest } from "fastify";
import { portalPath } from "@tidings/client";
import { MAX_TAG_FILTERS } from "@tidings/protocol";
import Type from "typebox";
import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import { ApiError } from "../http/errors.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { assetRoutes } from "./asset-routes.js";
import { findPortalAssetDir, loadPortalAssets } from "./assets.js";
import { listAddress, parsePortalAddress } from "./addresses.js";
import { feedRoutes } from "./feed-routes.js";
import { pageFeeds } from "./page-feeds.js";
import { portalPage } from "./portal-page.js";
import { messagePage, notFoundPage } from "./message-page.js";
import { loadOrganisation } from "./organisation.js";
import { loadScreen, portalSections } from "./screens.js";
import { NOT_FOUND_CSP, pageCsp, parseOrigins } from "./page-csp.js";
import { portalOrigin, publicPortalApp } from "./portal-request.js";

/** Section names of the server-rendered navigation (the app then renders them in the visitor's language). */
const SECTION_NAMES = { roadmap: "Roadmap", requests: "Requests", changelog: "What's new", feedback: "Feedback" } as const;

/** Path prefix of the portal's bundles. */
export const PORTAL_ASSET_BASE = "/p/assets";

/** A page's parameters: `embed=1` for the widget's frame, `tag` (repeatable) to filter the requests list. */
const PageQuerySchema = Type.Object(
  {
    embed: Type.Optional(Type.String({ maxLength: 8 })),
    tag: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Array(Type.String({ maxLength: 64 }), { maxItems: MAX_TAG_FILTERS })])),
  },
  { additionalProperties: true },
);
type PageQuery = { embed?: string | undefined; tag?: string | string[] | undefined };

/**
 * The public portal: `GET /p/<APP_KEY>` (roadmap, requests, changelog and feedback, rendered in
 * the browser by `@tidings/react` over the public API), its bundles under `/p/assets/`, and the
 * script-tag widget at `/widget.js`. Unknown and private apps get the same 404 page.
 *
 * @example
 * ```html
 * <script src="https://feedback.example.com/widget.js" data-app-key="app_demo" async></script>
 * ```
 */
export function portalRoutes(app: App, ctx: Context): void {
  const assets = loadPortalAssets(findPortalAssetDir);

  const originOf = (request: FastifyRequest) => portalOrigin(ctx, request);
  const portalApp = (appKey: string) => publicPortalApp(ctx, appKey);

  const page = async (request: FastifyRequest, reply: FastifyReply, appKey: string, rest: string, query: PageQuery) => {
    const embed = query.embed === "1";
    void reply.header("Cache-Control", "no-cache").header("Referrer-Policy", "strict-origin-when-cross-origin");
    const html = (status: number, body: string) => reply.code(status).header("Content-Security-Policy", NOT_FOUND_CSP).type("text/html; charset=utf-8").send(body);
    const notFound = () => html(404, notFoundPage());
    const appRow = await portalApp(appKey);
    if (appRow === undefined) return notFound();
    if (assets.get("portal.js") === undefined) return html(503, messagePage("Not available", "The portal is not built: run `npm run build`."));
    try {
      await enforceRateLimit(ctx, request, "list");
    } catch (error) {
      // A visitor's browser shows the answer as the page: a page to read, not the API's JSON.
      if (!(error instanceof ApiError) || error.code !== "rate_limited") throw error;
      const wait = error.options.headers?.["Retry-After"] ?? "60";
      void reply.headers(error.options.headers ?? {});
      return html(429, messagePage("Too many requests", `Too many pages were opened from your network in a short time. Please try again in ${wait} seconds.`));
    }
    const org = await loadOrganisation(ctx, appRow.id);
    const tags = query.tag === undefined ? [] : Array.isArray(query.tag) ? query.tag : [query.tag];
    const screen = await loadScreen(ctx, appRow, org, rest, tags);
    const data = {
      boards: org.boards.length > 1 ? org.boards.map((b) => ({ id: b.id, slug: b.slug, name: b.name })) : [],
      tags: org.tags.map((t) => ({ slug: t.slug, name: t.name, color: t.color })),
    };
    const nav = portalSections(appRow)
      .map((section) => `<a href="${escapeHtml(portalPath(appRow.appKey, { screen: section }))}">${SECTION_NAMES[section]}</a>`)
      .join(" ");
    const boardSlug = parsePortalAddress(rest)?.board;
    if (screen.kind === "missing" && boardSlug !== undefined && !org.boards.some((b) => b.slug === boardSlug)) {
      // A board no public board answers to: private or unknown, never told apart. The page request
      // carries no identity (an SSO token stays in the fragment), so it is the same 404 for everyone,
      // stored nowhere; it holds the portal, which in the browser asks the API for the boards the
      // signed-in visitor may see and shows the board's list to those its rule admits.
      return reply
        .code(404)
        .header("Cache-Control", "no-store")
        .header("Content-Security-Policy", pageCsp(embed, parseOrigins(appRow.allowedEmbedOrigins)))
        .header("X-Robots-Tag", "noindex")
        .type("text/html; charset=utf-8")
        .send(
          portalPage({
            appKey: appRow.appKey,
            embed,
            assetBase: PORTAL_ASSET_BASE,
            meta: { title: `Not found · ${appRow.name}`, description: "This page does not exist.", canonical: originOf(request) + listAddress(appRow.appKey, { board: boardSlug, tags: [] }), ogType: "website", siteName: appRow.name, image: null, indexable: false, feeds: [] },
            body: `<nav class="td-tabs">${nav}</nav>\n<h2>Not found</h2>\n<p>This page does not exist.</p>`,
            data,
          }),
        );
    }
    if (screen.kind === "missing") return notFound();
    if (screen.kind === "redirect") {
      const query = request.url.indexOf("?");
      return reply.code(301).redirect(screen.path + (query === -1 ? "" : request.url.slice(query)));
    }
    const origin = originOf(request);
    const feeds = pageFeeds(appRow, origin, screen.board);
    const indexable = appRow.portalIndexable === 1;
    return reply
      .header("Content-Security-Policy", pageCsp(embed, parseOrigins(appRow.allowedEmbedOrigins)))
      .header("X-Robots-Tag", indexable && !embed ? "all" : "noindex")
      .type("text/html; charset=utf-8")
      .send(
        portalPage({
          appKey: appRow.appKey,
          embed,
          assetBase: PORTAL_ASSET_BASE,
          meta: {
            title: screen.title,
            description: screen.description,
            canonical: origin + screen.path,
            ogType: screen.ogType,
            siteName: appRow.name,
            image: appRow.iconUrl?.startsWith("https://") ? appRow.iconUrl : null,
            indexable,
            feeds,
          },
          body: `<nav class="td-tabs">${nav}</nav>\n${screen.body}`,
          data,
        }),
      );
  };

  const pageSchema = { hide: true, querystring: PageQuerySchema };
  app.get("/p/:appKey", { schema: { ...pageSchema, params: Type.Object({ appKey: Type.String({ maxLength: 200 }) }) } }, (request, reply) =>
    page(request, reply, request.params.appKey, "", request.query),
  );
  app.get(
    "/p/:appKey/*",
    { schema: { ...pageSchema, params: Type.Object({ appKey: Type.String({ maxLength: 200 }), "*": Type.String({ maxLength: 400 }) }) } },
    (request, reply) => page(request, reply, request.params.appKey, `/${request.params["*"]}`, request.query),
  );

  feedRoutes(app, ctx);
  assetRoutes(app, assets);
}
