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
    expect(config.logLevel).toBe("info");
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
});
