import type { FastifyReply, FastifyRequest } from "fastify";
import Type from "typebox";
import { lookupPublicApp } from "../apps/public-app.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import type { App } from "../http/types.js";
import { findPortalAssetDir, loadPortalAssets, PORTAL_ASSETS, type PortalAssetName } from "./assets.js";
import { notFoundPage, portalPage } from "./html.js";

/** Path prefix of the portal's bundles. */
export const PORTAL_ASSET_BASE = "/p/assets";

function parseOrigins(json: string | null | undefined): string[] {
  try {
    const value: unknown = JSON.parse(json ?? "[]");
    return Array.isArray(value) ? value.filter((o): o is string => typeof o === "string" && /^https:\/\/[^\s;,'"]+$/.test(o)) : [];
  } catch {
    return [];
  }
}

/**
 * The page's policy: our own script and styles only, API calls to this origin, images from https
 * (release notes) and local previews. Framing: nobody, except the widget's `?embed=1` page, which
 * the app's `allowedEmbedOrigins` restrict when it lists any.
 */
function pageCsp(embed: boolean, embedOrigins: string[]): string {
  const ancestors = !embed ? "'none'" : embedOrigins.length > 0 ? embedOrigins.join(" ") : "*";
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' https: data: blob:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors}`,
  ].join("; ");
}

const NOT_FOUND_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

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
  const assets = loadPortalAssets(findPortalAssetDir());

  app.get(
    "/p/:appKey",
    {
      schema: {
        hide: true,
        params: Type.Object({ appKey: Type.String({ maxLength: 200 }) }),
        querystring: Type.Object({ embed: Type.Optional(Type.String({ maxLength: 8 })) }, { additionalProperties: true }),
      },
    },
    async (request, reply) => {
      const embed = request.query.embed === "1";
      const found = /^[A-Za-z0-9_-]{1,100}$/.test(request.params.appKey) ? await lookupPublicApp(ctx, request.params.appKey) : undefined;
      void reply.header("Cache-Control", "no-cache").header("Referrer-Policy", "strict-origin-when-cross-origin");
      if (found === undefined || found.app.allowPublic !== 1) {
        return reply.code(404).header("Content-Security-Policy", NOT_FOUND_CSP).type("text/html; charset=utf-8").send(notFoundPage());
      }
      if (assets.get("portal.js") === undefined) {
        return reply
          .code(503)
          .header("Content-Security-Policy", NOT_FOUND_CSP)
          .type("text/html; charset=utf-8")
          .send(notFoundPage("The portal is not built: run `npm run build`."));
      }
      return reply
        .header("Content-Security-Policy", pageCsp(embed, parseOrigins(found.app.allowedEmbedOrigins)))
        .type("text/html; charset=utf-8")
        .send(portalPage({ appKey: found.app.appKey, appName: found.app.name, embed, assetBase: PORTAL_ASSET_BASE }));
    },
  );

  const serveAsset = (name: PortalAssetName, maxAge: number) => async (request: FastifyRequest, reply: FastifyReply) => {
    const asset = assets.get(name);
    if (asset === undefined) throw new ApiError("not_found");
    void reply
      .header("ETag", asset.etag)
      .header("Cache-Control", `public, max-age=${maxAge}`)
      .header("Cross-Origin-Resource-Policy", "cross-origin");
    if (request.headers["if-none-match"] === asset.etag) return reply.code(304).send();
    return reply.type(PORTAL_ASSETS[name]).send(asset.body);
  };

  app.get("/p/assets/portal.js", { schema: { hide: true } }, serveAsset("portal.js", 300));
  app.get("/p/assets/portal.css", { schema: { hide: true } }, serveAsset("portal.css", 300));
  app.get("/widget.js", { schema: { hide: true } }, serveAsset("widget.js", 300));
}
