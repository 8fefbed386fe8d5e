import { createHash } from "node:crypto";
import { MAX_ATTACHMENTS, UploadSessionBodySchema, UploadSessionResultSchema } from "@tidings/protocol";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import { recordIdempotentWrite } from "../http/idempotency.js";
import { IDENTITY_HEADERS } from "../http/openapi.js";
import type { App } from "../http/types.js";
import { newId, randomToken } from "../ids.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { errors, tags } from "./route-options.js";
import { plannedSlot } from "./session-slots.js";
import { appKeyRequired, header, resolveUploader } from "./uploader.js";

/** How long an upload session's token accepts files. */
export const UPLOAD_SESSION_TTL_MS = 60 * 60_000;

/** How a session's token is stored and looked up: its SHA-256. */
export function sessionTokenHash(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Opening an upload session: `POST /uploads/sessions` plans a slot per file and answers its token. */
export function sessionRoutes(scope: App, ctx: Context): void {
  const db = ctx.db.kysely;

  scope.post(
    "/api/v1/uploads/sessions",
    {
      schema: {
        tags,
        summary: "Open an upload session for 1–8 files", readsHeaders: ["X-App-Key", ...IDENTITY_HEADERS],
        description:
          "Needs `X-User-Token` (400 `uploader_identity_required`). Answers both documented shapes: `{sessionId, sessionToken, expiresAt, uploads}` and `{session, files}`. The token is valid for an hour.",
        body: UploadSessionBodySchema,
        response: { 201: UploadSessionResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      await enforceRateLimit(ctx, request, "upload");
      const body = request.body;
      const appKey = body.appKey ?? header(request, "x-app-key");
      if (appKey === undefined) throw appKeyRequired();
      const { app, tokenHash } = await resolveUploader(ctx, request, appKey);
      if (tokenHash === null) throw new ApiError("uploader_identity_required");
      const now = isoNow(ctx.clock);
      const sessionId = newId("ups", ctx.clock.now());
      const sessionToken = `cpt_up_${randomToken(40)}`;
      const expiresAt = new Date(ctx.clock.now().getTime() + UPLOAD_SESSION_TTL_MS).toISOString();
      const session = { sessionId, appId: app.id, maxAttachmentBytes: app.maxAttachmentBytes, uploaderTokenHash: tokenHash, purpose: body.purpose, now };
      const slots = body.files.map((file, index) => plannedSlot(file, index, session));
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto("uploadSessions")
          .values({ id: sessionId, appId: app.id, tokenHash: sessionTokenHash(sessionToken), uploaderTokenHash: tokenHash, purpose: body.purpose ?? "feedback_attachment", expiresAt, createdAt: now })
          .execute();
        await trx.insertInto("uploads").values(slots).execute();
        await recordIdempotentWrite(trx, request);
      });
      const files = slots.map((slot) => ({
        clientFileId: slot.clientFileId ?? "",
        uploadId: slot.id,
        uploadUrl: `/api/v1/uploads/${slot.id}`,
        filename: slot.filename,
        mimeType: slot.mimeType,
        maxBytes: slot.maxBytes,
        maxSizeBytes: slot.maxBytes,
      }));
      return reply.code(201).send({
        sessionId,
        sessionToken,
        expiresAt,
        uploads: files,
        session: { sessionId, sessionToken, expiresAt, maxFileSizeBytes: app.maxAttachmentBytes, maxFiles: MAX_ATTACHMENTS },
        files,
      });
    },
  );
}
