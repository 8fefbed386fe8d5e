import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.js";

describe("loadConfig", () => {
  it("defaults to port 8787 and SQLite under ./data", () => {
    const config = loadConfig({});
    expect(config.port).toBe(8787);
    expect(config.host).toBe("0.0.0.0");
    expect(config.dataDir).toBe(path.resolve("data"));
    expect(config.databaseUrl).toBe(`sqlite:${path.resolve("data", "tidings.db")}`);
    expect(config.trustProxy).toBe(false);
    expect(config.demo).toBe(true);
    expect(config.adminToken).toBeNull();
    expect(config.setupCode).toBeNull();
    expect(config.logLevel).toBe("info");
    expect(config.metricsEnabled).toBe(false);
    expect(config.metricsToken).toBeNull();
  });

  it("reads every variable", () => {
    const config = loadConfig({
      PORT: "9000",
      HOST: "127.0.0.1",
      DATA_DIR: "/tmp/tidings-x",
      DATABASE_URL: "postgres://u@db:5432/tidings",
      PUBLIC_URL: "https://feedback.example.com/",
      TRUST_PROXY: "10.0.0.0/8, 127.0.0.1",
      LOG_LEVEL: "warn",
      TIDINGS_DEMO: "0",
      TIDINGS_ADMIN_TOKEN: "x".repeat(32),
      TIDINGS_SETUP_CODE: " first-run_Code-2024 ",
      METRICS_ENABLED: "1",
      METRICS_TOKEN: " scrape-token-0123456789 ",
    });
    expect(config).toMatchObject({
      port: 9000,
      host: "127.0.0.1",
      dataDir: "/tmp/tidings-x",
      databaseUrl: "postgres://u@db:5432/tidings",
      publicUrl: "https://feedback.example.com",
      trustProxy: ["10.0.0.0/8", "127.0.0.1"],
      logLevel: "warn",
      demo: false,
      adminToken: "x".repeat(32),
      setupCode: "first-run_Code-2024",
      metricsEnabled: true,
      metricsToken: "scrape-token-0123456789",
    });
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: "true" }).trustProxy).toBe(true);
  });

  it.each([
    ["PORT", "eighty"],
    ["PORT", "70000"],
    ["DATABASE_URL", "mysql://x"],
    ["PUBLIC_URL", "not a url"],
    ["PUBLIC_URL", "ftp://example.com"],
    ["TRUST_PROXY", "everyone!"],
    ["LOG_LEVEL", "loud"],
    ["TIDINGS_DEMO", "maybe"],
    ["TIDINGS_ADMIN_TOKEN", "short"],
    ["METRICS_ENABLED", "sometimes"],
    ["METRICS_TOKEN", "short"],
    ["TIDINGS_SETUP_CODE", "short"],
    ["TIDINGS_SETUP_CODE", "has spaces in it"],
    ["TIDINGS_SETUP_CODE", "code/with?url=chars"],
    ["TIDINGS_SETUP_CODE", "x".repeat(129)],
    ["REDIS_URL", "http://cache:6379"],
    ["REDIS_URL", "not a url"],
    ["TIDINGS_RATE_LIMIT_SEARCH", "30"],
    ["TIDINGS_RATE_LIMIT_SEARCH", "thirty/60"],
    ["TIDINGS_RATE_LIMIT_VOTE", "0/60"],
    ["TIDINGS_RATE_LIMIT_CONFIG", "60/0"],
    ["TIDINGS_RATE_LIMIT_PUBLIC_READ", "60/86401"],
    ["TIDINGS_RATE_LIMIT_USER", "99999999999999999999/60"],
    ["STORAGE_URL", "gs://bucket"],
    ["STORAGE_URL", "s3://Bad_Bucket"],
    ["STORAGE_URL", "s3://ab"],
    ["STORAGE_URL", "s3://key:secret@bucket/x"],
    ["STORAGE_URL", "s3://bucket/a/../b"],
    ["STORAGE_URL", "s3://bucket/a?b"],
    ["STORAGE_URL", "file://relative/folder"],
    ["S3_ENDPOINT", "http://minio:9000"],
    ["S3_REGION", "eu-west-1"],
    ["S3_FORCE_PATH_STYLE", "true"],
  ])("names %s when it is %j", (variable, value) => {
    let error: unknown;
    try {
      loadConfig({ [variable]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    expect((error as ConfigError).message).toContain(variable);
  });

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

  it("keeps rate limits in memory: search and sign-in per IP, the rest per user with a per-IP cap", () => {
    const config = loadConfig({});
    expect(config.redisUrl).toBeNull();
    expect(config.rateLimits).toEqual({
      search: { limit: 30, windowSeconds: 60 },
      list: { limit: 60, windowSeconds: 60, perIp: 3000 },
      vote: { limit: 20, windowSeconds: 60, perIp: 2000 },
      public_read: { limit: 60, windowSeconds: 60, perIp: 3000 },
      public_write: { limit: 10, windowSeconds: 60, perIp: 1000 },
      config: { limit: 60, windowSeconds: 60, perIp: 3000 },
      user: { limit: 60, windowSeconds: 60, perIp: 3000 },
      upload: { limit: 30, windowSeconds: 60, perIp: 1000 },
      feedback: { limit: 10, windowSeconds: 60, perIp: 1000 },
      login: { limit: 10, windowSeconds: 60 },
    });
  });

  it("reads a per-IP cap from TIDINGS_RATE_LIMIT_<BUCKET>_PER_IP, never below the per-user limit", () => {
    const config = loadConfig({ TIDINGS_RATE_LIMIT_VOTE_PER_IP: " 5000 ", TIDINGS_RATE_LIMIT_LIST: "6000/60", TIDINGS_RATE_LIMIT_SEARCH_PER_IP: "9" });
    expect(config.rateLimits.vote).toEqual({ limit: 20, windowSeconds: 60, perIp: 5000 });
    // A per-user limit raised past the default cap takes the cap with it.
    expect(config.rateLimits.list).toEqual({ limit: 6000, windowSeconds: 60, perIp: 6000 });
    // Search stays per IP: there is no cap to set.
    expect(config.rateLimits.search).toEqual({ limit: 30, windowSeconds: 60 });
    for (const bad of ["10", "many", "1e4", "-5"]) {
      expect(() => loadConfig({ TIDINGS_RATE_LIMIT_VOTE_PER_IP: bad })).toThrow(
        new RegExp(`^TIDINGS_RATE_LIMIT_VOTE_PER_IP: expected .* at least the bucket's 20, got "${bad}"`),
      );
    }
  });

  it("reads REDIS_URL and one TIDINGS_RATE_LIMIT_<BUCKET> per bucket", () => {
    const config = loadConfig({
      REDIS_URL: "rediss://:pw@cache.internal:6380/2",
      TIDINGS_RATE_LIMIT_SEARCH: "10/30",
      TIDINGS_RATE_LIMIT_PUBLIC_WRITE: " 5 / 3600 ",
      TIDINGS_RATE_LIMIT_CONFIG: "1000000000/60",
    });
    expect(config.redisUrl).toBe("rediss://:pw@cache.internal:6380/2");
    expect(config.rateLimits.search).toEqual({ limit: 10, windowSeconds: 30 });
    expect(config.rateLimits.public_write).toEqual({ limit: 5, windowSeconds: 3600, perIp: 1000 });
    expect(config.rateLimits.config).toEqual({ limit: 1_000_000_000, windowSeconds: 60, perIp: 1_000_000_000 });
    expect(config.rateLimits.vote).toEqual({ limit: 20, windowSeconds: 60, perIp: 2000 });
  });

  it("does not echo a bad REDIS_URL, which may carry a password", () => {
    expect(() => loadConfig({ REDIS_URL: "http://:hunter2@cache:6379" })).toThrow(ConfigError);
    expect(() => loadConfig({ REDIS_URL: "http://:hunter2@cache:6379" })).not.toThrow(/hunter2/);
  });

  it("runs web and background work in one process unless TIDINGS_ROLE says otherwise", () => {
    expect(loadConfig({}).role).toBe("all");
    expect(loadConfig({ TIDINGS_ROLE: " Worker " }).role).toBe("worker");
    expect(loadConfig({ TIDINGS_ROLE: "web" }).role).toBe("web");
    expect(() => loadConfig({ TIDINGS_ROLE: "both" })).toThrow(/TIDINGS_ROLE: expected web, worker or all, got "both"/);
  });

  it("reserves a claimed job for five minutes unless TIDINGS_JOB_LEASE_SECONDS says otherwise", () => {
    expect(loadConfig({}).jobLeaseMs).toBe(300_000);
    expect(loadConfig({ TIDINGS_JOB_LEASE_SECONDS: " 30 " }).jobLeaseMs).toBe(30_000);
    for (const bad of ["1", "86401", "1.5", "-3", "ten"]) {
      expect(() => loadConfig({ TIDINGS_JOB_LEASE_SECONDS: bad })).toThrow(/^TIDINGS_JOB_LEASE_SECONDS: expected an integer 2-86400/);
    }
  });

  it("lets webhooks reach only public addresses unless TIDINGS_WEBHOOK_ALLOW names hosts or ranges", () => {
    expect(loadConfig({}).webhookAllow).toEqual({ hosts: new Set(), ranges: [] });
    const allow = loadConfig({ TIDINGS_WEBHOOK_ALLOW: "127.0.0.0/8, hooks.internal" }).webhookAllow;
    expect([...allow.hosts]).toEqual(["hooks.internal"]);
    expect(allow.ranges.map(([range, bits]) => `${range.toString()}/${bits}`)).toEqual(["127.0.0.0/8"]);
    expect(() => loadConfig({ TIDINGS_WEBHOOK_ALLOW: "10.0.0.0/40" })).toThrow(/^TIDINGS_WEBHOOK_ALLOW: "10.0.0.0\/40" is not a CIDR range/);
  });

  it("disables a webhook endpoint after 5 failed deliveries in a row unless TIDINGS_WEBHOOK_DISABLE_AFTER says otherwise", () => {
    expect(loadConfig({}).webhookDisableAfter).toBe(5);
    expect(loadConfig({ TIDINGS_WEBHOOK_DISABLE_AFTER: "20" }).webhookDisableAfter).toBe(20);
    expect(() => loadConfig({ TIDINGS_WEBHOOK_DISABLE_AFTER: "0" })).toThrow(/^TIDINGS_WEBHOOK_DISABLE_AFTER/);
  });
});
