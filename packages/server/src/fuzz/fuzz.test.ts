import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";
import { createFixtures, type Fixtures } from "@tidings/testing/fuzz/fixtures";
import { answerProblems, changedTables, snapshotter, type Snapshot } from "@tidings/testing/fuzz/invariants";
import { routesOf, type RouteSpec } from "@tidings/testing/fuzz/openapi-walker";
import { edgeRequests } from "@tidings/testing/fuzz/edge-requests";
import { randomRequestArb, requestArb, type FuzzRequest } from "@tidings/testing/fuzz/requests";

/**
 * Property-based requests against every route of the OpenAPI document, on each engine.
 * `FUZZ_RUNS` (requests per route, default 10) and `FUZZ_SEED` make a deeper or a repeated run;
 * `FUZZ_ROUTE` keeps only routes whose "METHOD /path" contains it; `FUZZ_SHRINK=1` shrinks a
 * failing request to a smaller one; `FUZZ_VERBOSE=1` prints each route's time, `=2` each request.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const SEED = Number(process.env.FUZZ_SEED ?? 20_251_111);
const ROUTE_FILTER = process.env.FUZZ_ROUTE;

/**
 * Tables and columns a refused request may write by design: failed sign-ins are counted so that
 * guessing passwords locks the account (docs/console-api.md, lockout); a token's or session's
 * last use is stamped when it authenticates, before the request is judged.
 */
const WRITTEN_ON_REFUSAL = new Set(["console_login_failures", "api_tokens.last_used_at", "console_sessions.last_seen_at"]);

/** A stable per-route seed, so one route's sequence does not depend on which routes run before it. */
function routeSeed(route: RouteSpec): number {
  let h = SEED | 0;
  for (const ch of `${route.method} ${route.path}`) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

function describeRequest(request: FuzzRequest): string {
  const payload = request.payload === undefined ? "" : typeof request.payload === "string" ? request.payload : request.payload.toString("latin1");
  const cut = (text: string) => (text.length > 400 ? `${text.slice(0, 400)}… (${text.length} chars)` : text);
  return `${request.method} ${cut(request.url)}\n  headers ${cut(JSON.stringify(request.headers))}\n  body ${cut(JSON.stringify(payload))}\n  (${request.label})`;
}

describe.each(testDialects())("fuzzing every route of the OpenAPI document on %s", (dialect) => {
  let t: TestApp;
  let dataDir: string;
  let fixtures: Fixtures;
  let routes: RouteSpec[];
  let snapshot: () => Promise<Snapshot>;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tidings-fuzz-"));
    // No background jobs: a mail job finishing mid-request would look like a write by the request.
    t = await createTestApp(dialect, { dataDir, rateLimits: GENEROUS_RATE_LIMITS }, { jobIntervalMs: 0 });
    fixtures = await createFixtures(t.app, t.admin.authorization);
    routes = routesOf(t.app.swagger()).filter((r) => ROUTE_FILTER === undefined || `${r.method} ${r.path}`.includes(ROUTE_FILTER));
    snapshot = await snapshotter(t.database.db, path.join(dataDir, "uploads"), WRITTEN_ON_REFUSAL);
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Sends one request and answers what is wrong with what happened (nothing: an empty list). */
  /** The database as the last refused request left it; nothing else writes between requests. */
  let unchanged: Snapshot | undefined;

  async function check(route: RouteSpec, request: FuzzRequest): Promise<string[]> {
    const before = unchanged ?? (await snapshot());
    unchanged = undefined;
    if (process.env.FUZZ_VERBOSE === "2") process.stderr.write(`> ${describeRequest(request).slice(0, 600)}\n`);
    const answer = await t.app.inject({
      method: request.method as "GET",
      url: request.url,
      headers: request.headers,
      ...(request.payload === undefined ? {} : { payload: request.payload }),
    });
    const problems = answerProblems(route, request, answer);
    if (answer.statusCode >= 400) {
      const after = await snapshot();
      unchanged = after;
      const changed = changedTables(before, after);
      if (changed.length > 0) problems.push(`refused with ${answer.statusCode} but wrote ${changed.join(", ")}: ${answer.body.slice(0, 200)}`);
    }
    const health = await t.app.inject({ url: "/healthz" });
    if (health.statusCode !== 200) problems.push(`/healthz answered ${health.statusCode} afterwards`);
    return problems;
  }

  it(
    "answers every malformed request with a 4xx envelope, writes nothing when it refuses, and stays healthy",
    async () => {
      const failures: string[] = [];
      const targets: Array<{ route: RouteSpec; requests: fc.Arbitrary<FuzzRequest> }> = [
        ...routes.map((route) => ({ route, requests: requestArb(route, fixtures) })),
        ...(ROUTE_FILTER === undefined ? [{ route: { method: "ANY", path: "(random)" } as RouteSpec, requests: randomRequestArb(routes, fixtures) }] : []),
      ];
      if (ROUTE_FILTER === undefined) expect(targets.length).toBeGreaterThan(50);
      for (const { route, requests } of targets) {
        let lastProblems: string[] = [];
        const seed = routeSeed(route);
        const started = Date.now();
        if (route.method !== "ANY") {
          for (const request of edgeRequests(route, fixtures, seed)) {
            const problems = await check(route, request);
            if (problems.length > 0) failures.push(`${route.method} ${route.path}: ${problems.join("; ")}\n  ${describeRequest(request)}`);
          }
        }
        const result = await fc.check(
          fc.asyncProperty(requests, async (request) => {
            lastProblems = await check(route, request);
            return lastProblems.length === 0;
          }),
          // Shrinking resends requests to a server whose state moves on: only on demand.
          { numRuns: RUNS, seed, endOnFailure: process.env.FUZZ_SHRINK === undefined },
        );
        if (process.env.FUZZ_VERBOSE) process.stderr.write(`${route.method} ${route.path}: ${Date.now() - started} ms${result.failed ? " FAILED" : ""}\n`);
        if (result.failed) {
          const request = result.counterexample?.[0];
          // Shrinking may have ended on a passing run: ask the smallest failing request again.
          const problems = request === undefined ? lastProblems : await check(route, request);
          failures.push(
            `${route.method} ${route.path} (seed ${seed}, path ${result.counterexamplePath ?? "?"}): ${(problems.length > 0 ? problems : lastProblems).join("; ")}\n  ` +
              (request === undefined ? String(result.errorInstance) : describeRequest(request)),
          );
        }
      }
      if (failures.length > 0) {
        console.error(`Fuzz failures (reproduce with FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}):\n\n${failures.join("\n\n")}`);
      }
      expect(failures, `FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}`).toEqual([]);
    },
    // About 100 routes, each request under 100 ms even on a busy machine.
    Math.max(300_000, RUNS * 15_000),
  );
});
