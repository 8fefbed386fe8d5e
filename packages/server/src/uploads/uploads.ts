import { createHash, randomBytes } from "node:crypto";
import type { Context } from "../context.js";
import type { UploadsTable } from "../db/schema.js";
import { downloadUrl } from "./signed-links.js";

/** A stored upload row. */
export type UploadRow = UploadsTable;

/** What an upload stores: `image` (checked PNG/JPEG/WebP/GIF/HEIC) or `object` (any other data file). */
export type UploadKind = "image" | "object";

/**
 * A new upload id: `upl_` + 32 random hex characters (the production server's shape).
 *
 * @example
 * ```ts
 * newUploadId(); // "upl_9f2c…" (36 characters)
 * ```
 */
export function newUploadId(): string {
  return `upl_${randomBytes(16).toString("hex")}`;
}

/** What any upload id looks like. */
export const UPLOAD_ID_PATTERN = "^upl_[0-9a-f]{32}$";

/**
 * The storage key of one write of an upload: a fan-out folder, the id, and a random suffix so
 * two attempts at one session slot never write the same object.
 */
export function newStorageKey(uploadId: string): string {
  return `${uploadId.slice(4, 6)}/${uploadId}-${randomBytes(4).toString("hex")}`;
}

/** SHA-256 of an end-user token, as uploads and sessions record their uploader. */
export function uploaderHash(token: string | null): string | null {
  return token === null ? null : createHash("sha256").update(token, "utf8").digest("hex");
}

/** The descriptor every upload answer carries: the legacy fields and the session fields together (wire contract §12.2). */
export interface UploadDescriptor {
  kind: string;
  key: string;
  id: string;
  uploadId: string;
  url: string;
  downloadUrl: string;
  filename: string;
  mimeType: string;
  contentType: string;
  size: number;
  sizeBytes: number;
  sha256: string;
  status: "uploaded";
  stored: true;
}

/**
 * The answer for a stored upload, with a fresh signed link. `kind` is `r2` for the legacy
 * `/uploads/r2` alias, which older SDKs put back into their attachment descriptors.
 */
export async function toDescriptor(ctx: Context, row: UploadRow, kind: string = row.kind): Promise<UploadDescriptor> {
  const url = await downloadUrl(ctx, row.id);
  const size = row.size ?? 0;
  return {
    kind,
    key: row.storageKey,
    id: row.id,
    uploadId: row.id,
    url,
    downloadUrl: url,
    filename: row.filename,
    mimeType: row.mimeType,
    contentType: row.mimeType,
    size,
    sizeBytes: size,
    sha256: row.sha256 ?? "",
    status: "uploaded",
    stored: true,
  };
}
