import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config.js";

describe("STORAGE_URL and the S3 settings", () => {
  it("keeps uploads in DATA_DIR/uploads by default, or in a folder given as a file:// URL", () => {
    expect(loadConfig({}).storage).toEqual({ kind: "disk", dir: null });
    expect(loadConfig({ STORAGE_URL: "file:///srv/tidings/uploads" }).storage).toEqual({ kind: "disk", dir: "/srv/tidings/uploads" });
  });

  it("reads an s3:// STORAGE_URL with the S3 settings", () => {
    expect(loadConfig({ STORAGE_URL: "s3://tidings-uploads" }).storage).toEqual({
      kind: "s3",
      bucket: "tidings-uploads",
      prefix: "",
      endpoint: null,
      region: "us-east-1",
      forcePathStyle: false,
    });
    const config = loadConfig({
      STORAGE_URL: "s3://tidings.files/prod/uploads/",
      S3_ENDPOINT: "https://minio.internal:9000/",
      S3_REGION: "auto",
      S3_FORCE_PATH_STYLE: "1",
      AWS_ACCESS_KEY_ID: "AKIAEXAMPLE",
      AWS_SECRET_ACCESS_KEY: "secret",
    });
    expect(config.storage).toEqual({
      kind: "s3",
      bucket: "tidings.files",
      prefix: "prod/uploads",
      endpoint: "https://minio.internal:9000",
      region: "auto",
      forcePathStyle: true,
    });
  });

  it("refuses S3 settings that would be ignored or half a key pair, naming the variable without echoing secrets", () => {
    const s3 = { STORAGE_URL: "s3://tidings-uploads" };
    const cases: [Record<string, string>, string][] = [
      [{ ...s3, S3_ENDPOINT: "minio:9000" }, "S3_ENDPOINT"],
      [{ ...s3, S3_REGION: "EU West" }, "S3_REGION"],
      [{ ...s3, S3_FORCE_PATH_STYLE: "sometimes" }, "S3_FORCE_PATH_STYLE"],
      [{ ...s3, AWS_ACCESS_KEY_ID: "AKIAEXAMPLE" }, "AWS_SECRET_ACCESS_KEY"],
      [{ ...s3, AWS_SECRET_ACCESS_KEY: "hunter2" }, "AWS_ACCESS_KEY_ID"],
      [{ STORAGE_URL: "file:///srv/uploads", S3_ENDPOINT: "http://minio:9000" }, "S3_ENDPOINT"],
    ];
    for (const [env, variable] of cases) {
      let error: unknown;
      try {
        loadConfig(env);
      } catch (e) {
        error = e;
      }
      expect(error, variable).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe(variable);
      expect((error as ConfigError).message).not.toContain("hunter2");
    }
    expect(() => loadConfig({ STORAGE_URL: "s3://key:hunter2@bucket/x" })).not.toThrow(/hunter2/);
  });
});
