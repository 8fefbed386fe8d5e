import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";

describe("rate-limit settings", () => {
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
      mcp: { limit: 300, windowSeconds: 60 },
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
});
