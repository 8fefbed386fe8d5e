import { spawnSync } from "node:child_process";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpTestServer, type SmtpTestServer } from "@tidings/testing/smtp-test-server";
import { createWorkspaceWithApp } from "@tidings/testing/console-client";
import { createTestApp, GENEROUS_RATE_LIMITS, type TestApp } from "@tidings/testing/test-app";
import { testDialects } from "@tidings/testing/test-database";

const TOKEN = "scrape-token-0123456789abcdef";
const CONFIG_ROUTE = "/api/v1/public/config/:appKey";
/** Prometheus's own checker (Debian package `prometheus`); CI must have it, elsewhere its test is skipped. */
const hasPromtool = spawnSync("promtool", ["--version"]).error === undefined;

/** One scrape, parsed by a Prometheus text-format parser. */
interface Scrape {
  /** A counter's or gauge's value for exactly these labels (0 when the series is absent). */
  value(name: string, labels?: Record<string, string>): number;
  /** A histogram's observation count for exactly these labels, summed over every series that has them. */
  count(name: string, labels?: Record<string, string>): number;
  /** A histogram's cumulative bucket counts (`le` ascending, `+Inf` last) for one series. */
  buckets(name: string, labels: Record<string, string>): { le: string; count: number }[];
  names: Set<string>;
}

async function scrape(t: TestApp, authorization = `Bearer ${TOKEN}`): Promise<Scrape> {
  const res = await t.app.inject({ url: "/metrics", headers: { authorization } });
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  const families = parsePrometheusTextFormat(res.body);
  // The parser folds a labelled histogram's series into one, dropping their labels; without the
  // TYPE lines it reads `<name>_count` lines as families of their own (one per run of lines), labels kept.
  const untyped = parsePrometheusTextFormat(res.body.replace(/^# TYPE \S+ histogram\n/gm, ""));
  const samples = (from: typeof families, name: string, labels: Record<string, string>) =>
    from.filter((f) => f.name === name).flatMap((f) => f.metrics).filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return {
    names: new Set(families.map((f) => f.name)),
    value: (name, labels = {}) => samples(families, name, labels).reduce((sum, m) => sum + Number(m.value), 0),
    count: (name, labels = {}) => {
      expect(families.find((f) => f.name === name)?.type).toBe("HISTOGRAM");
      return samples(untyped, `${name}_count`, labels).reduce((sum, m) => sum + Number(m.value), 0);
    },
    buckets: (name, labels) =>
      samples(untyped, `${name}_bucket`, labels).map((m) => ({ le: m.labels!.le!, count: Number(m.value) })),
  };
}

describe.each(testDialects())("GET /metrics on %s", (dialect) => {
  let smtp: SmtpTestServer;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    t = await createTestApp(
      dialect,
      {
        metricsEnabled: true,
        metricsToken: TOKEN,
        smtpUrl: smtp.url,
        publicUrl: "https://tidings.example",
        rateLimits: { ...GENEROUS_RATE_LIMITS, config: { limit: 3, windowSeconds: 60 } },
      },
      { jobIntervalMs: 0, timeQueries: true },
    );
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it("answers 401 with the error envelope without the bearer token, or with another one", async () => {
    for (const headers of [{}, { authorization: "Bearer wrong-token-0123456789abcdef" }, { authorization: TOKEN }]) {
      const res = await t.app.inject({ url: "/metrics", headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers["www-authenticate"]).toMatch(/^Bearer/);
      expect(res.json()).toMatchObject({ code: "unauthorized" });
    }
  });

  it("counts requests by route template and status class, times them, and counts refusals and cache reads", async () => {
    const before = await scrape(t);
    const config = (key: string) => t.app.inject({ url: `/api/v1/public/config/${key}` });
    expect((await config("app_demo")).statusCode).toBe(200);
    expect((await config("app_demo")).statusCode).toBe(200);
    expect((await config("app_missing")).statusCode).toBe(404);
    expect((await config("app_demo")).statusCode).toBe(429);
    expect((await t.app.inject({ url: "/no/such/page" })).statusCode).toBe(404);
    const after = await scrape(t);

    const ok = { method: "GET", route: CONFIG_ROUTE, status_class: "2xx" };
    const refused = { ...ok, status_class: "4xx" };
    const delta = (name: string, labels: Record<string, string>) => after.value(name, labels) - before.value(name, labels);
    expect(delta("tidings_http_requests_total", ok)).toBe(2);
    expect(delta("tidings_http_requests_total", refused)).toBe(2);
    expect(delta("tidings_http_requests_total", { method: "GET", route: "unmatched", status_class: "4xx" })).toBe(1);
    // No series carries a concrete key: route labels are templates.
    expect(after.value("tidings_http_requests_total", { route: "/api/v1/public/config/app_demo" })).toBe(0);
    expect(after.count("tidings_http_request_duration_seconds", ok) - before.count("tidings_http_request_duration_seconds", ok)).toBe(2);
    // The request count and the duration histogram agree, and its buckets are cumulative up to +Inf.
    for (const labels of [ok, refused]) {
      const buckets = after.buckets("tidings_http_request_duration_seconds", labels);
      expect(buckets.map((b) => b.le)).toEqual(["0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "+Inf"]);
      expect(buckets.every((b, i) => i === 0 || b.count >= buckets[i - 1]!.count)).toBe(true);
      expect(buckets.at(-1)!.count).toBe(after.count("tidings_http_request_duration_seconds", labels));
      expect(after.value("tidings_http_requests_total", labels)).toBe(after.count("tidings_http_request_duration_seconds", labels));
    }
    expect(delta("tidings_rate_limit_refusals_total", { bucket: "config" })).toBe(1);
    // app_demo: a miss, then a hit; app_missing: a miss.
    expect(delta("tidings_cache_lookups_total", { cache: "config", result: "miss" })).toBe(2);
    expect(delta("tidings_cache_lookups_total", { cache: "config", result: "hit" })).toBe(1);
    // What they cached is in the cache's gauges.
    expect(after.value("tidings_cache_entries", {})).toBeGreaterThan(before.value("tidings_cache_entries", {}));
    expect(after.value("tidings_cache_bytes", {})).toBeGreaterThan(before.value("tidings_cache_bytes", {}));
    expect(after.value("tidings_cache_bytes", {})).toBeLessThanOrEqual(t.app.ctx.config.cacheMaxMb * 1024 * 1024);
    // The misses read the app from the database.
    expect(after.count("tidings_db_query_duration_seconds", { operation: "select", outcome: "ok" })).toBeGreaterThan(
      before.count("tidings_db_query_duration_seconds", { operation: "select", outcome: "ok" }),
    );
    // Node's process metrics, and the webhook outcomes from the first scrape.
    for (const name of ["process_cpu_user_seconds_total", "nodejs_heap_size_used_bytes", "nodejs_eventloop_lag_seconds"]) expect(after.names).toContain(name);
    expect(after.names).toContain("tidings_webhook_deliveries_total");
    for (const outcome of ["success", "http_error", "network_error", "timeout", "refused"]) expect(after.value("tidings_webhook_deliveries_total", { outcome })).toBe(0);
    t.app.ctx.metrics.webhookDeliveries.inc({ outcome: "failed" });
    expect((await scrape(t)).value("tidings_webhook_deliveries_total", { outcome: "failed" })).toBe(1);
  });

  it("reports the job queue by kind at scrape time, and counts mails sent and failed over SMTP", async () => {
    const acme = await createWorkspaceWithApp(t.app, t.admin.authorization, "metrics");
    const subscribe = await t.app.inject({
      method: "POST",
      url: `/api/v1/public/apps/${acme.appKey}/changelog/subscribe`,
      payload: { email: "ada@example.com" },
    });
    expect(subscribe.statusCode).toBe(201);
    const queued = await scrape(t);
    const jobs = await t.database.db.kysely.selectFrom("jobs").select("kind").where("status", "=", "pending").execute();
    expect(jobs).toHaveLength(1);
    const kind = jobs[0]!.kind;
    expect(queued.value("tidings_jobs_queued", { kind })).toBe(1);
    expect(queued.value("tidings_jobs_oldest_age_seconds", { kind })).toBe(0);

    t.clock.advance(90_000);
    smtp.failNext(1);
    await t.app.jobs.tick();
    const failed = await scrape(t);
    expect(failed.value("tidings_mail_deliveries_total", { outcome: "failed" })).toBe(1);
    expect(failed.value("tidings_mail_deliveries_total", { outcome: "sent" })).toBe(0);
    expect(failed.value("tidings_jobs_queued", { kind })).toBe(1);
    expect(failed.value("tidings_jobs_oldest_age_seconds", { kind })).toBe(90);

    t.clock.advance(60_000);
    await t.app.jobs.tick();
    expect(smtp.to("ada@example.com")).toHaveLength(1);
    const sent = await scrape(t);
    expect(sent.value("tidings_mail_deliveries_total", { outcome: "sent" })).toBe(1);
    expect(sent.value("tidings_mail_deliveries_total", { outcome: "failed" })).toBe(1);
    expect(sent.names).toContain("tidings_jobs_queued");
    expect(sent.value("tidings_jobs_queued", { kind })).toBe(0);
  });

  /** The scrape Prometheus reads, with Node's process metrics and traffic of every kind counted. */
  async function scrapeText(): Promise<string> {
    await t.app.inject({ url: "/api/v1/public/config/app_demo" });
    await t.app.inject({ url: "/no/such/page" });
    const res = await t.app.inject({ url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    return res.body;
  }

  it("names every metric family by Prometheus's rules: `_total` on counters only, help on each", async () => {
    const families = parsePrometheusTextFormat(await scrapeText());
    expect(families.length).toBeGreaterThan(20);
    const wrong = families
      .filter((f) => (f.type === "COUNTER") !== f.name.endsWith("_total") || f.help.trim() === "" || /_(count|sum|bucket)$/.test(f.name))
      .map((f) => `${f.name} (${f.type})`);
    expect(wrong).toEqual([]);
  });

  it.skipIf(!hasPromtool && process.env.CI === undefined)("passes `promtool check metrics` with no finding", async () => {
    const checked = spawnSync("promtool", ["check", "metrics"], { input: await scrapeText(), encoding: "utf8" });
    expect(checked.error, "promtool is not installed (Debian package `prometheus`)").toBeUndefined();
    expect(`${checked.stdout}${checked.stderr}`).toBe("");
    expect(checked.status).toBe(0);
  });
});

describe("GET /metrics and its settings", () => {
  it("is not served, and with METRICS_ENABLED=1 answers without a token when METRICS_TOKEN is unset, on a worker too", async () => {
    const off = await createTestApp("sqlite");
    try {
      expect((await off.app.inject({ url: "/metrics" })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
    // A worker serves it too: it is the instance sending the mail and running the jobs.
    const open = await createTestApp("sqlite", { metricsEnabled: true, role: "worker" });
    try {
      const res = await open.app.inject({ url: "/metrics" });
      expect(res.statusCode).toBe(200);
      expect(parsePrometheusTextFormat(res.body).map((f) => f.name)).toContain("tidings_http_requests_total");
    } finally {
      await open.close();
    }
  });
});
