import { describe, expect, it, vi } from "vitest";
import { uuidV4 } from "./uuid.js";

describe("uuidV4", () => {
  it("draws from crypto.getRandomValues, never Math.random", () => {
    const random = vi.spyOn(Math, "random");
    const ids = new Set(Array.from({ length: 100 }, () => uuidV4()));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(random).not.toHaveBeenCalled();
    random.mockRestore();
  });

  it("throws instead of falling back when there is no CSPRNG", () => {
    expect(() => uuidV4({})).toThrow(/secure random/);
    expect(() => uuidV4({})).toThrow(/install react-native-get-random-values/);
  });
});
