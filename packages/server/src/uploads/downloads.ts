import { ErrorBodySchema } from "@tidings/protocol";
import Type from "typebox";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import { BYTES } from "../http/openapi.js";
import type { App } from "../http/types.js";
import { attachmentDisposition } from "./content-disposition.js";
import { downloadableUpload } from "./downloadable.js";
import { tags } from "./route-options.js";
import { verifyDownloadLink } from "./signed-links.js";
import { UPLOAD_ID_PATTERN } from "./uploads.js";

/** Signed downloads: `GET /files/:uploadId`, re-checked on every download. */
export function downloadRoutes(scope: App, ctx: Context): void {
  const db = ctx.db.kysely;

  scope.get(
    "/api/v1/files/:uploadId",
    {
      schema: {
        tags,
        summary: "Download a stored upload through a signed link",
        description:
          "Links come from upload answers (for the end user) and the console (`for=console`); they expire after an hour (403 `invalid_download_link`). " +
          "Every download checks again that the upload, its feedback and its app still exist, and for an end user's link that the app is still public (404 `upload_not_found` otherwise). " +
          "Served as an attachment with `X-Content-Type-Options: nosniff`, a sandbox CSP and `Cache-Control: private, no-cache`.",
        params: Type.Object({ uploadId: Type.String({ pattern: UPLOAD_ID_PATTERN }) }),
        querystring: Type.Object({
          expires: Type.Optional(Type.String({ maxLength: 20 })),
          sig: Type.Optional(Type.String({ maxLength: 128 })),
          for: Type.Optional(Type.String({ maxLength: 16 })),
        }),
        response: { 403: ErrorBodySchema, 404: ErrorBodySchema },
        documentedAnswers: { 200: { description: "The file, as an attachment", content: { "application/octet-stream": BYTES } } },
      },
    },
    async (request, reply) => {
      const { uploadId } = request.params;
      const expires = Number(request.query.expires ?? "");
      const audience = request.query.for === undefined ? "public" : request.query.for === "console" ? "console" : undefined;
      if (audience === undefined || !(await verifyDownloadLink(ctx, uploadId, expires, request.query.sig ?? "", audience))) {
        throw new ApiError("invalid_download_link");
      }
      const row = await downloadableUpload(db, uploadId, audience);
      const stream = row === undefined ? undefined : await ctx.storage.get(row.storageKey);
      if (row === undefined || stream === undefined) throw new ApiError("upload_not_found");
      return reply
        .headers({
          "Content-Type": row.mimeType,
          "Content-Disposition": attachmentDisposition(row.filename),
          "X-Content-Type-Options": "nosniff",
          "Content-Security-Policy": "sandbox; default-src 'none'",
          // Revalidated every time, so a browser never shows a file its link no longer serves.
          "Cache-Control": "private, no-cache",
          ...(row.size === null ? {} : { "Content-Length": String(row.size) }),
        })
        .send(stream as never);
    },
  );
}
