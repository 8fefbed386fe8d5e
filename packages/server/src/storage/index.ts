export { normalizePrefix, type ObjectStorage, STORAGE_KEY_SHAPE } from "./object-storage.js";
export { LocalDiskStorage } from "./local-disk-storage.js";
export { S3Storage, type S3StorageOptions } from "./s3-storage.js";
