import { describe, expect, it } from "vitest";
import { retryDelayMs } from "./job-outcomes.js";

describe("retryDelayMs", () => {
  it("doubles from 30 s and stops at an hour", () => {
    expect([1, 2, 3, 4, 5].map(retryDelayMs)).toEqual([30_000, 60_000, 120_000, 240_000, 480_000]);
    expect(retryDelayMs(20)).toBe(3_600_000);
  });
});
