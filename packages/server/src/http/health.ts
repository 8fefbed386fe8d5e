import type { FastifyInstance } from "fastify";
import { ErrorBodySchema } from "@tidings/protocol";
import Type from "typebox";
import { ping, type Db } from "../db/database.js";

const Status = Type.Object({ status: Type.String() });

/** `/healthz` (the process answers) and `/readyz` (the database answers and we are not closing). */
export function healthRoutes(app: FastifyInstance, db: Db, isClosing: () => boolean): void {
  app.get(
    "/healthz",
    { schema: { tags: ["health"], summary: "Liveness", response: { 200: Status } } },
    async () => ({ status: "ok" }),
  );
  app.get(
    "/readyz",
    { schema: { tags: ["health"], summary: "Readiness: database reachable", response: { 200: Status, 503: ErrorBodySchema } } },
    async (_request, reply) => {
      if (isClosing() || !(await ping(db))) {
        return reply.code(503).send({ error: "Service unavailable", code: "service_unavailable" });
      }
      return { status: "ready" };
    },
  );
}
