import type { Context } from "../context.js";
import type { App } from "../http/types.js";
import { downloadRoutes } from "./downloads.js";
import { multipartUploadRoutes } from "./multipart-uploads.js";
import { sessionBytesRoutes } from "./session-bytes.js";
import { sessionRoutes } from "./sessions.js";

/**
 * Uploads: legacy multipart (`/uploads/images`, `/uploads/objects`, `/uploads/r2`), upload
 * sessions with their PUT, and signed downloads (`/api/v1/files/:uploadId`). Registers its own
 * scopes: multipart parsing and raw bodies exist only where these routes need them.
 */
export async function uploadPublicRoutes(scope: App, ctx: Context): Promise<void> {
  await multipartUploadRoutes(scope, ctx);
  await sessionBytesRoutes(scope, ctx);
  sessionRoutes(scope, ctx);
  downloadRoutes(scope, ctx);
}
