import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../http/errors.js";
import type { App } from "../http/types.js";
import { PORTAL_ASSETS, type PortalAssetName, type loadPortalAssets } from "./assets.js";

/** The portal's bundles under `/p/assets/` and the script-tag widget at `/widget.js`, with ETags. */
export function assetRoutes(app: App, assets: ReturnType<typeof loadPortalAssets>): void {
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
