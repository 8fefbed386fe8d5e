import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { boundHeapGrowth } from "./heap-growth.js";

/** The built module (`npm test` builds before it tests): V8's flags are the child's, not the test runner's. */
const BUILT = new URL("../dist/heap-growth.js", import.meta.url).href;

/**
 * A child process keeps a live set of about 60 MB while it churns through objects that live long
 * enough to be promoted and then die, as a loaded server's requests do (up to 60,000 of them at a
 * time, about 40 MB more); it prints the largest heap (`heapTotal`) it saw and the live set after
 * a full collection.
 */
function churn(percent: number): { peakMb: number; liveMb: number } {
  const script = `
    import { boundHeapGrowth } from ${JSON.stringify(BUILT)};
    boundHeapGrowth(${percent});
    const live = Array.from({ length: 400_000 }, (_, i) => ({ name: "live " + i, at: [i, i + 1] }));
    let recent = [];
    let peak = 0;
    for (let round = 0; round < 3_000; round++) {
      for (let i = 0; i < 2_000; i++) recent.push({ name: "recent " + i + " " + round, at: [round, i] });
      if (recent.length > 60_000) recent = recent.slice(30_000);
      peak = Math.max(peak, process.memoryUsage().heapTotal);
    }
    recent = [];
    globalThis.gc();
    const mb = (bytes) => Math.round(bytes / 1048576);
    console.log(JSON.stringify({ peakMb: mb(peak), liveMb: mb(process.memoryUsage().heapUsed), kept: live.length }));
  `;
  const out = execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], { encoding: "utf8" });
  return JSON.parse(out) as { peakMb: number; liveMb: number };
}

describe("boundHeapGrowth", () => {
  it("keeps a churning heap near what it holds (V8 alone let the same churn grow it to 5.6x the live set)", () => {
    const bounded = churn(30);
    expect(bounded.liveMb).toBeGreaterThan(40);
    // 1.3x the live set and the churn's window (140-147 MB here), plus the young generation (32 MB);
    // V8's own factor took the heap to 327-330 MB.
    expect(bounded.peakMb).toBeLessThan(bounded.liveMb * 3);
  }, 60_000);

  it("is not applied at 0, nor over a --heap-growing-percent the process was started with", () => {
    expect(boundHeapGrowth(0, [])).toBe(false);
    expect(boundHeapGrowth(50, ["--heap-growing-percent=20"])).toBe(false);
    expect(boundHeapGrowth(50, ["--heap_growing_percent", "20"])).toBe(false);
  });
});
