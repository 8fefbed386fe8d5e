import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { FakeClock } from "@tidings/testing/fake-clock";
import { createReporter, duration, progressMode } from "./progress.js";

function streams(tty = false) {
  let out = "";
  let err = "";
  const stdout = new PassThrough().on("data", (c: Buffer) => (out += c.toString()));
  const stderr = Object.assign(
    new PassThrough().on("data", (c: Buffer) => (err += c.toString())),
    tty ? { isTTY: true, columns: 160, cursorTo: () => true, clearLine: () => true, moveCursor: () => true } : {},
  );
  return { stdout, stderr, out: () => out, err: () => err };
}

describe("progress reporter", () => {
  it("picks JSON for --json, a bar on a terminal and plain lines in a pipe", () => {
    expect(progressMode(true, { isTTY: true })).toBe("json");
    expect(progressMode(false, { isTTY: true })).toBe("tty");
    expect(progressMode(false, {})).toBe("plain");
  });

  it("prints a plain line at most every interval, with percent, counts, rate and ETA from the clock", () => {
    const clock = new FakeClock();
    const s = streams();
    const progress = createReporter({ mode: "plain", stderr: s.stderr, stdout: s.stdout, clock, label: "Importing", unit: "items", intervalMs: 2000 });
    progress.start(1000);
    clock.advance(10_000);
    progress.update(250, { requests: 200, votes: 300 });
    clock.advance(500);
    progress.update(260, { requests: 210, votes: 300 });
    clock.advance(10_000);
    progress.update(500, { requests: 400, votes: 600 });
    progress.issue({ at: "posts.csv line 7", message: "the title is empty" });
    progress.stop();
    expect(s.err().split("\n")).toEqual([
      "Importing 1000…",
      "Importing: 25% (250 of 1000), 200 requests, 300 votes, 50 rows/s, ETA 30s",
      "Importing: 50% (500 of 1000), 400 requests, 600 votes, 49 rows/s, ETA 21s",
      "Skipped posts.csv line 7: the title is empty",
      "",
    ]);
    expect(s.out()).toBe("");
  });

  it("writes JSON events on stdout and nothing on stderr", () => {
    const clock = new FakeClock();
    const s = streams();
    const progress = createReporter({ mode: "json", stderr: s.stderr, stdout: s.stdout, clock, label: "Importing", unit: "bytes" });
    progress.start(2048);
    clock.advance(1000);
    progress.update(2048, { requests: 10 });
    progress.issue({ at: "votes-1.json item 3", message: "a vote without a post" });
    progress.note('status "someday" is not mapped to a column');
    const events = s.out().trim().split("\n").map((l) => JSON.parse(l) as unknown);
    expect(events).toEqual([
      { type: "start", total: 2048, unit: "bytes" },
      { type: "progress", done: 2048, total: 2048, percent: 100, counts: { requests: 10 }, rate: 10, etaSeconds: 0 },
      { type: "issue", at: "votes-1.json item 3", message: "a vote without a post" },
      { type: "note", message: 'status "someday" is not mapped to a column' },
    ]);
    expect(s.err()).toBe("");
  });

  it("draws a bar with counts, rate and ETA on a terminal", () => {
    const clock = new FakeClock();
    const s = streams(true);
    const progress = createReporter({ mode: "tty", stderr: s.stderr, stdout: s.stdout, clock, label: "Importing", unit: "bytes" });
    progress.start(100);
    clock.advance(4000);
    progress.update(40, { requests: 40, comments: 2 });
    progress.stop();
    expect(s.err()).toContain("Importing [");
    expect(s.err()).toContain("40% | 40 requests, 2 comments | 11 rows/s | ETA 6s");
  });

  it("formats durations", () => {
    expect(duration(65_000)).toBe("1m 05s");
    expect(duration(900)).toBe("1s");
  });
});
