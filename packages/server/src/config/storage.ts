import path from "node:path";
import { fileURLToPath } from "node:url";
import { normalizePrefix } from "../storage/object-storage.js";
import { ConfigError, parseBool, parseUrl, type Env } from "./env.js";

/** Where uploads are kept: a folder on local disk, or a bucket of an S3-compatible service. */
export type StorageConfig =
  | {
      kind: "disk";
      /** Absolute folder; null keeps uploads in `DATA_DIR/uploads`. */
      dir: string | null;
    }
  | {
      kind: "s3";
      bucket: string;
      /** Folder inside the bucket, without surrounding slashes; `""` for the root. */
      prefix: string;
      /** `S3_ENDPOINT`: the service's URL (MinIO, R2, Backblaze); null for AWS S3. @default null */
      endpoint: string | null;
      /** `S3_REGION` (`auto` on R2). @default "us-east-1" */
      region: string;
      /** `S3_FORCE_PATH_STYLE`: bucket in the path, not the host name (MinIO needs it). @default false */
      forcePathStyle: boolean;
    };

const S3_VARIABLES = ["S3_ENDPOINT", "S3_REGION", "S3_FORCE_PATH_STYLE"] as const;

/** `STORAGE_URL` with the S3 variables: a folder on disk or an S3-compatible bucket. */
export function parseStorage(env: Env): StorageConfig {
  const raw = env.STORAGE_URL?.trim() ?? "";
  const expected = "expected s3://<bucket>[/<prefix>], file:///<absolute folder>, or unset for DATA_DIR/uploads";
  if (raw === "" || raw.startsWith("file:")) {
    const set = S3_VARIABLES.find((name) => (env[name]?.trim() ?? "") !== "");
    if (set !== undefined) throw new ConfigError(set, "is set, but STORAGE_URL is not an s3:// URL, so uploads would stay on local disk");
    if (raw === "") return { kind: "disk", dir: null };
    let dir: string;
    try {
      dir = fileURLToPath(raw);
    } catch {
      throw new ConfigError("STORAGE_URL", expected);
    }
    return { kind: "disk", dir: path.resolve(dir) };
  }
  const match = /^s3:\/\/([^/?#@:]+)(\/[^?#]*)?$/.exec(raw);
  if (match === null) throw new ConfigError("STORAGE_URL", `${expected} (keys go in AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, not the URL)`);
  const bucket = match[1]!;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new ConfigError("STORAGE_URL", `"${bucket}" is not a bucket name (3-63 lowercase letters, digits, dots and hyphens)`);
  }
  let prefix: string;
  try {
    prefix = normalizePrefix(match[2] ?? "");
  } catch {
    throw new ConfigError("STORAGE_URL", "the prefix after the bucket must be folder names of letters, digits, '.', '_' and '-', without '..' or empty segments");
  }
  const region = env.S3_REGION?.trim() || "us-east-1";
  if (!/^[a-z0-9-]{1,32}$/.test(region)) throw new ConfigError("S3_REGION", `expected a region name such as us-east-1 or auto, got "${region}"`);
  const keyId = (env.AWS_ACCESS_KEY_ID?.trim() ?? "") !== "";
  const secret = (env.AWS_SECRET_ACCESS_KEY?.trim() ?? "") !== "";
  if (keyId !== secret) {
    throw new ConfigError(keyId ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID", "set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or neither");
  }
  return { kind: "s3", bucket, prefix, endpoint: parseUrl(env, "S3_ENDPOINT"), region, forcePathStyle: parseBool(env, "S3_FORCE_PATH_STYLE", false) };
}
