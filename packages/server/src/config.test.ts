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

  it("bounds the heap's growth to half its live size unless TIDINGS_HEAP_GROWTH_PERCENT says otherwise", () => {
    expect(loadConfig({}).heapGrowthPercent).toBe(50);
    expect(loadConfig({ TIDINGS_HEAP_GROWTH_PERCENT: "0" }).heapGrowthPercent).toBe(0);
    expect(loadConfig({ TIDINGS_HEAP_GROWTH_PERCENT: "120" }).heapGrowthPercent).toBe(120);
    for (const bad of ["301", "-1", "1.5", "half"]) {
      expect(() => loadConfig({ TIDINGS_HEAP_GROWTH_PERCENT: bad })).toThrow(/^TIDINGS_HEAP_GROWTH_PERCENT: expected an integer 0-300/);
    }
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
