import { IdParam } from "@tidings/protocol";
import Type from "typebox";
import type { Context } from "../../context.js";
import { ApiError } from "../../http/errors.js";
import { CONSOLE_BODY_LIMIT, type App } from "../../http/types.js";
import type { JobRunner } from "../../jobs/runner.js";
import { markBroken } from "../trackers/broken.js";
import { rawJsonBodies, takeDelivery } from "../trackers/webhook-intake.js";
import { githubAdapter, repositoryOf } from "./adapter.js";
import { githubJobPayload, installationBreak } from "./webhook-events.js";

const Params = Type.Object({ connectionId: IdParam("ghc") });
const Headers = Type.Object({
  "x-hub-signature-256": Type.Optional(Type.String({ description: "`sha256=` and the hex HMAC-SHA256 of the raw body keyed with the connection's webhook secret" })),
  "x-github-event": Type.Optional(Type.String({ description: "The event's name (`issues`, `ping`, …)" })),
  "x-github-delivery": Type.Optional(Type.String({ description: "The delivery's id: a delivery already received is acknowledged and ignored" })),
});
const Received = Type.Object({
  /** Already received: acknowledged, nothing done again. */
  duplicate: Type.Boolean(),
  /** Whether the delivery will move a request (an `issues` event Tidings acts on). */
  queued: Type.Boolean(),
});

/**
 * `POST /api/v1/integrations/github/:connectionId/webhook`: GitHub's webhook deliveries. The
 * signature is checked over the raw body (in constant time, by `@octokit/webhooks`) before
 * anything is read or written; a delivery id already received is acknowledged and ignored; the
 * work (moving a request) is queued, so GitHub gets its 202 at once. For a GitHub App
 * installation, an `installation` delivery deleting or suspending it, or an
 * `installation_repositories` one taking its repository out, marks the connection broken (the
 * owners' mail is queued) and stops its calls. Registered in a scope of
 * its own, where JSON bodies stay raw text for the signature.
 *
 * @example
 * ```ts
 * await app.register(async (scope) => githubWebhookRoutes(scope.withTypeProvider<TypeBoxTypeProvider>(), ctx, jobs));
 * ```
 */
export function githubWebhookRoutes(app: App, ctx: Context, jobs: JobRunner): void {
  const db = ctx.db.kysely;
  rawJsonBodies(app);

  app.post(
    "/api/v1/integrations/github/:connectionId/webhook",
    {
      bodyLimit: CONSOLE_BODY_LIMIT,
      schema: {
        tags: ["integrations: GitHub"],
        summary: "Receive a GitHub webhook delivery (the `issues`, `installation` and `installation_repositories` events) for a GitHub connection",
        description:
          "Give GitHub the connection's `webhookUrl` and webhook secret, content type `application/json`. 401 `invalid_webhook_signature` for a missing or wrong `X-Hub-Signature-256` (nothing is written); 404 `github_not_connected` for an unknown connection. An issue closed as completed, reopened, or labelled with a mapped label moves its linked request. For a GitHub App installation, the installation deleted or suspended, or the repository taken out of it, marks the connection broken.",
        params: Params,
        headers: Headers,
        documentedBody: { "application/json": { type: "object", description: "GitHub's webhook payload, signed as sent" } },
        response: { 202: Received },
      },
    },
    async (request, reply) => {
      const row = await db
        .selectFrom("trackerConnections")
        .select(["id", "target", "webhookSecret", "githubInstallationId as installationId"])
        .where("id", "=", request.params.connectionId)
        .where("provider", "=", "github")
        .executeTakeFirst();
      if (row === undefined) throw new ApiError("github_not_connected");
      const connection = { ...row, ...repositoryOf(row) };
      const raw = typeof request.body === "string" ? request.body : "";
      const signature = request.headers["x-hub-signature-256"];
      // Loaded by the first delivery, not at start: an instance without GitHub does not hold it.
      const { Webhooks } = await import("@octokit/webhooks");
      const verified =
        typeof signature === "string" && raw !== "" && (await new Webhooks({ secret: connection.webhookSecret }).verify(raw, signature).catch(() => false));
      if (!verified) throw new ApiError("invalid_webhook_signature");
      const event = request.headers["x-github-event"];
      const deliveryId = request.headers["x-github-delivery"];
      if (typeof event !== "string" || event === "" || typeof deliveryId !== "string" || deliveryId === "" || deliveryId.length > 100) {
        throw new ApiError("validation_failed", { message: "X-GitHub-Event and X-GitHub-Delivery are required", details: { formErrors: ["X-GitHub-Event and X-GitHub-Delivery are required"], fieldErrors: {} } });
      }
      let payload: unknown;
      try {
        payload = JSON.parse(raw);
      } catch {
        throw new ApiError("invalid_json");
      }
      const job = githubJobPayload(connection, event, deliveryId, payload);
      const answer = await takeDelivery(ctx, jobs, githubAdapter, { connectionId: connection.id, deliveryId, event, job });
      const reason = answer.duplicate ? undefined : installationBreak(connection, event, payload);
      if (reason !== undefined) await markBroken(ctx, githubAdapter, connection.id, reason);
      return reply.code(202).send(answer);
    },
  );
}
