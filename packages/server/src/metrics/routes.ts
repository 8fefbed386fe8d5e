import type { FastifyInstance } from "fastify";
import { sameSecret } from "../console/auth.js";
import { ApiError } from "../http/errors.js";
import type { HistogramSeries } from "./histogram-tally.js";
import type { Metrics } from "./metrics.js";

/** The `status_class` label: `2xx`, `4xx`, … */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

/**
 * Counts and times every answer by method, route template (`/api/v1/public/config/:appKey`, so
 * ids never become series; `unmatched` for a 404 no route took) and status class, and serves the
 * registry at `GET /metrics`, behind `Authorization: Bearer <token>` when `token` is set.
 *
 * @example
 * ```ts
 * metricsRoutes(app, metrics, config.metricsToken);
 * ```
 */
export function metricsRoutes(app: FastifyInstance, metrics: Metrics, token: string | null): void {
  // The series of each route, found from its config object (one per route, kept by Fastify for
  // the app's life): by method, then by status / 100. A request only indexes into them.
  const routes = new WeakMap<object, Record<string, HistogramSeries[] | undefined>>();
  app.addHook("onResponse", (request, reply, done) => {
    const route = request.routeOptions;
    let byMethod = routes.get(route.config);
    if (byMethod === undefined) {
      byMethod = Object.create(null) as Record<string, HistogramSeries[] | undefined>;
      routes.set(route.config, byMethod);
    }
    const byClass = (byMethod[request.method] ??= []);
    const status = reply.statusCode;
    const series = (byClass[(status / 100) | 0] ??= metrics.httpDuration.series({
      method: request.method,
      route: route.url ?? "unmatched",
      status_class: statusClass(status),
    }));
    series.observe(reply.elapsedTime / 1000);
    done();
  });
  app.get(
    "/metrics",
    {
      schema: {
        tags: ["operations"],
        summary: "Prometheus metrics in the text exposition format (METRICS_ENABLED=1; bearer METRICS_TOKEN when set)",
        ...(token === null ? {} : { security: [{ bearer: [] }] }),
      },
    },
    async (request, reply) => {
      if (token !== null) {
        const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "");
        if (match === null || !sameSecret(match[1]!, token)) throw new ApiError("unauthorized", { headers: { "WWW-Authenticate": 'Bearer realm="metrics"' } });
      }
      const text = await metrics.registry.metrics();
      return reply.header("Cache-Control", "no-store").type(metrics.registry.contentType).send(text);
    },
  );
}
