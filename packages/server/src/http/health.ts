import { performance } from "node:perf_hooks";
import type { FastifyInstance } from "fastify";
import Type, { type Static } from "typebox";
import type { InstanceRole } from "../config.js";
import { ping, type Db } from "../db/database.js";
import type { ObjectStorage } from "../storage/object-storage.js";

/** How long one dependency may take to answer `/readyz` before it counts as failed. */
export const READY_CHECK_TIMEOUT_MS = 1000;

const Status = Type.Object({ status: Type.String() });
const Check = Type.Object({
  status: Type.Union([Type.Literal("ok"), Type.Literal("fail")]),
  latencyMs: Type.Number({ description: "How long the check took, in milliseconds" }),
});
const Readiness = Type.Object({
  status: Type.Union([Type.Literal("ok"), Type.Literal("degraded"), Type.Literal("fail")], {
    description: "`ok`: every dependency answers; `degraded`: Redis or storage does not (200); `fail`: the database does not, or the server is shutting down (503)",
  }),
  role: Type.Union([Type.Literal("web"), Type.Literal("worker"), Type.Literal("all")]),
  checks: Type.Object({
    database: Check,
    redis: Type.Optional(Check),
    storage: Check,
  }),
});
const NotReady = Type.Intersect([Readiness, Type.Object({ error: Type.String(), code: Type.String() })]);

/** The `/readyz` body. */
export type ReadinessReport = Static<typeof Readiness>;

/** What `/readyz` checks. */
export interface HealthDeps {
  db: Db;
  storage: ObjectStorage;
  /** PINGs the shared Redis; absent when there is none. */
  redisPing?: (() => Promise<void>) | undefined;
  role: InstanceRole;
  /** True once the server is shutting down: it then reports not ready, so balancers stop sending. */
  isClosing: () => boolean;
}

/** Runs `probe` with a deadline; answers its outcome and how long it took. */
async function check(probe: () => Promise<boolean>): Promise<Static<typeof Check>> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), READY_CHECK_TIMEOUT_MS);
  });
  const ok = await Promise.race([probe().catch(() => false), deadline]).finally(() => clearTimeout(timer));
  return { status: ok ? "ok" : "fail", latencyMs: Math.round((performance.now() - started) * 10) / 10 };
}

/**
 * Checks every dependency at once. The database failing (or shutting down) is `fail`; Redis or
 * storage failing is `degraded`: the instance still serves (rate limits let requests through,
 * uploads fail), and every instance shares them, so taking this one out of rotation would not help.
 *
 * @example
 * ```ts
 * const report = await readiness({ db, storage, role: "all", isClosing: () => false });
 * report.status; // "ok"
 * ```
 */
export async function readiness(deps: HealthDeps): Promise<ReadinessReport> {
  const { redisPing, storage } = deps;
  const [database, redis, stored] = await Promise.all([
    check(() => ping(deps.db)),
    redisPing === undefined ? undefined : check(() => redisPing().then(() => true)),
    check(async () => {
      await storage.ping?.();
      return true;
    }),
  ]);
  const checks = { database, ...(redis === undefined ? {} : { redis }), storage: stored };
  const status = deps.isClosing() || database.status === "fail" ? "fail" : redis?.status === "fail" || stored.status === "fail" ? "degraded" : "ok";
  return { status, role: deps.role, checks };
}

/**
 * `/healthz` (the process answers) and `/readyz` (each dependency with its status and latency:
 * 200 while the database answers, 503 when it does not or the server is shutting down).
 *
 * @example
 * ```ts
 * healthRoutes(app, { db, storage, redisPing: limiter.ping, role: config.role, isClosing: () => closing });
 * ```
 */
export function healthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  app.get(
    "/healthz",
    { schema: { tags: ["health"], summary: "Liveness", response: { 200: Status } } },
    async () => ({ status: "ok" }),
  );
  app.get(
    "/readyz",
    {
      schema: {
        tags: ["health"],
        summary: "Readiness: the database, Redis and storage, each with its status and latency",
        response: { 200: Readiness, 503: NotReady },
      },
    },
    async (_request, reply) => {
      const report = await readiness(deps);
      if (report.status === "fail") return reply.code(503).send({ error: "Service unavailable", code: "service_unavailable", ...report });
      return report;
    },
  );
}
