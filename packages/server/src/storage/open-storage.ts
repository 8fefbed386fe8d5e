import path from "node:path";
import type { Config } from "../config.js";
import { LocalDiskStorage } from "./local-disk-storage.js";
import type { ObjectStorage } from "./object-storage.js";

/**
 * The storage `config.storage` selects: a folder on local disk (`DATA_DIR/uploads` by default)
 * or an S3-compatible bucket. The S3 client is loaded only when it is used.
 *
 * @example
 * ```ts
 * const storage = await openStorage(loadConfig({ STORAGE_URL: "s3://tidings-uploads/prod" }));
 * ```
 */
export async function openStorage(config: Pick<Config, "storage" | "dataDir">): Promise<ObjectStorage> {
  const settings = config.storage;
  if (settings.kind === "disk") return new LocalDiskStorage(settings.dir ?? path.join(config.dataDir, "uploads"));
  const { S3Storage } = await import("./s3-storage.js");
  return new S3Storage({
    bucket: settings.bucket,
    prefix: settings.prefix,
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
  });
}
