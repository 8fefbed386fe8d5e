import { describe, expect, it } from "vitest";
import { retryDelay, WEBHOOK_RETRY_DELAYS_MS } from "./retry.js";

describe("webhook retry schedule", () => {
  it("spreads eight attempts over about a day", () => {
    const total = WEBHOOK_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(WEBHOOK_RETRY_DELAYS_MS).toHaveLength(7);
    expect(total / 3_600_000).toBeGreaterThan(24);
    expect(total / 3_600_000).toBeLessThan(30);
  });

  it("keeps each delay within ±20 % of the schedule", () => {
    WEBHOOK_RETRY_DELAYS_MS.forEach((base, i) => {
      expect(retryDelay(i + 1, () => 0)).toBe(Math.round(base * 0.8));
      expect(retryDelay(i + 1, () => 0.5)).toBe(base);
      expect(retryDelay(i + 1, () => 0.999999)).toBeLessThanOrEqual(Math.round(base * 1.2));
    });
    // Past the schedule, the last delay repeats.
    expect(retryDelay(20, () => 0.5)).toBe(WEBHOOK_RETRY_DELAYS_MS.at(-1));
  });
});
