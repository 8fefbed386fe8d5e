import type { Readable } from "node:stream";
import multipart from "@fastify/multipart";
import { UploadDescriptorSchema } from "@tidings/protocol";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import Type from "typebox";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import { hasIdempotencyKey, recordIdempotentWrite, reserveAfterBody, sendReplay } from "../http/idempotency.js";
import { BYTES } from "../http/openapi.js";
import type { App } from "../http/types.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { refuseExecutableBytes } from "./executables.js";
import { checkImageBytes, type ImageType } from "./image-types.js";
import { multipartError, readMultipart } from "./multipart.js";
import { receiveFile } from "./receive.js";
import { errors, streamed, tags } from "./route-options.js";
import { sessionTokenHash } from "./sessions.js";
import { header } from "./uploader.js";
import { newStorageKey, toDescriptor, UPLOAD_ID_PATTERN } from "./uploads.js";

/** Room for multipart framing when a session PUT's Content-Length is checked against the slot. */
const MULTIPART_OVERHEAD = 64 * 1024;

/**
 * The bytes of one session slot, raw or as a multipart `file` part. With an Idempotency-Key the
 * request is told apart by the file's digest, so a repeat after success reads the bytes again
 * to replay the first answer instead of refusing with 409 `already_uploaded`.
 */
async function sessionPut(ctx: Context, request: FastifyRequest, reply: FastifyReply, uploadId: string): Promise<void> {
  const db = ctx.db.kysely;
  await enforceRateLimit(ctx, request, "upload");
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header(request, "authorization") ?? "")?.[1];
  const token = bearer ?? header(request, "x-upload-session-token");
  const session =
    token === undefined ? undefined : await db.selectFrom("uploadSessions").selectAll().where("tokenHash", "=", sessionTokenHash(token)).executeTakeFirst();
  if (session === undefined || session.expiresAt <= isoNow(ctx.clock)) throw new ApiError("session_invalid_or_expired");
  const slot = await db.selectFrom("uploads").selectAll().where("id", "=", uploadId).where("sessionId", "=", session.id).executeTakeFirst();
  if (slot === undefined) throw new ApiError("upload_not_found");
  if (slot.status !== "pending" && !hasIdempotencyKey(request)) throw new ApiError("already_uploaded");
  const isMultipart = request.isMultipart();
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > slot.maxBytes + (isMultipart ? MULTIPART_OVERHEAD : 0)) throw new ApiError("file_too_large");

  let mimeType = slot.mimeType;
  const inspect =
    slot.kind === "image"
      ? (head: Buffer) => {
          mimeType = checkImageBytes(head, slot.mimeType as ImageType, slot.filename);
        }
      : refuseExecutableBytes;
  const key = newStorageKey(slot.id);
  try {
    let received: { size: number; sha256: string } | undefined;
    if (isMultipart) {
      await readMultipart(request, { fileSize: slot.maxBytes + 1 }, {
        onField: async () => {},
        onFile: async (part) => {
          received = await receiveFile(ctx.storage, key, part.file, { maxBytes: slot.maxBytes, inspect });
        },
      });
    } else {
      const source = request.body as Readable | undefined;
      if (source === undefined || source === null || typeof source.pipe !== "function") {
        throw new ApiError("invalid_upload", { message: "The file is empty" });
      }
      try {
        received = await receiveFile(ctx.storage, key, source, { maxBytes: slot.maxBytes, inspect });
      } catch (error) {
        throw multipartError(error);
      }
    }
    if (received === undefined) throw new ApiError("invalid_upload", { message: "A file part named file is required" });
    const replay = await reserveAfterBody(ctx, request, {}, { size: received.size, sha256: received.sha256 });
    if (replay !== undefined) {
      await ctx.storage.delete(key);
      sendReplay(reply, replay);
      return;
    }
    const now = isoNow(ctx.clock);
    const changes = { status: "uploaded" as const, storageKey: key, size: received.size, sha256: received.sha256, mimeType, uploadedAt: now };
    // Guarded: of two concurrent PUTs to one slot, exactly one stores; the other removes its copy.
    await db.transaction().execute(async (trx) => {
      const updated = await trx.updateTable("uploads").set(changes).where("id", "=", slot.id).where("status", "=", "pending").executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) throw new ApiError("already_uploaded");
      await recordIdempotentWrite(trx, request);
    });
    void reply.send(await toDescriptor(ctx, { ...slot, ...changes }));
  } catch (error) {
    await ctx.storage.delete(key);
    throw error;
  }
}

/** The bytes of upload-session slots: raw bytes of any type, or multipart, so every parser is replaced in their scope. */
export async function sessionBytesRoutes(scope: App, ctx: Context): Promise<void> {
  await scope.register(async (child) => {
    const typed = child.withTypeProvider<TypeBoxTypeProvider>();
    child.removeAllContentTypeParsers();
    child.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
    await child.register(multipart, { throwFileSizeLimit: false });
    const routeSchema = {
      tags,
      summary: "Send the bytes of an upload-session slot",
      description:
        "`Authorization: Bearer <sessionToken>` (or `X-Upload-Session-Token`); the body is the raw file with its Content-Type, or multipart with a `file` part. POST is an alias.",
      params: Type.Object({ uploadId: Type.String({ pattern: UPLOAD_ID_PATTERN }) }),
      security: [{ uploadSession: [] }, { uploadSessionHeader: [] }],
      documentedBody: { "*/*": BYTES, "multipart/form-data": Type.Object({ file: BYTES }) },
      response: { 200: UploadDescriptorSchema, ...errors },
    };
    // The PUT takes Idempotency-Key like its POST alias does.
    const put = async (request: FastifyRequest<{ Params: { uploadId: string } }>, reply: FastifyReply) => {
      await sessionPut(ctx, request, reply, request.params.uploadId);
      return reply;
    };
    typed.put("/api/v1/uploads/:uploadId", { schema: routeSchema, config: streamed }, put);
    typed.post("/api/v1/uploads/:uploadId", { schema: { ...routeSchema, hide: true }, config: streamed }, put);
  });
}
