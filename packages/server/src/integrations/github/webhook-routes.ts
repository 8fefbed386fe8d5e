import { Webhooks } from "@octokit/webhooks";
import { IdParam } from "@tidings/protocol";
import Type from "typebox";
import type { Context } from "../../context.js";
import { ApiError } from "../../http/errors.js";
import { CONSOLE_BODY_LIMIT, type App } from "../../http/types.js";
import type { JobRunner } from "../../jobs/runner.js";
import { markBroken } from "../trackers/broken.js";
import { rawJsonBodies, takeDelivery } from "../trackers/webhook-intake.js";
import { githubAdapter, repositoryOf, type GithubWebhookJobPayload } from "./adapter.js";

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

const ACTIONS = new Set(["closed", "reopened", "labeled"]);

/** The parts of an `issues` delivery a job needs, or undefined for anything Tidings does not act on. */
function jobPayload(connection: { id: string; owner: string; repo: string }, event: string, deliveryId: string, payload: unknown): GithubWebhookJobPayload | undefined {
  if (event !== "issues" || typeof payload !== "object" || payload === null) return undefined;
  const { action, issue, repository, label } = payload as { action?: unknown; issue?: Record<string, unknown>; repository?: { full_name?: unknown }; label?: { name?: unknown } };
  if (typeof action !== "string" || !ACTIONS.has(action) || typeof issue !== "object" || issue === null) return undefined;
  // Another repository's issue with the same number is not ours (a webhook set on an organisation).
  if (typeof repository?.full_name !== "string" || repository.full_name.toLowerCase() !== `${connection.owner}/${connection.repo}`.toLowerCase()) return undefined;
  if (typeof issue.number !== "number" || !Number.isSafeInteger(issue.number) || issue.pull_request !== undefined) return undefined;
  return {
    connectionId: connection.id,
    deliveryId,
    action: action as GithubWebhookJobPayload["action"],
    issueNumber: issue.number,
    stateReason: typeof issue.state_reason === "string" ? issue.state_reason : null,
    issueState: typeof issue.state === "string" ? issue.state : action === "closed" ? "closed" : "open",
    label: typeof label?.name === "string" ? label.name : null,
  };
}

/**
 * Why an `installation` or `installation_repositories` delivery ends a GitHub App connection:
 * its installation was deleted or suspended, or its repository was taken out of it. Undefined
 * for anything else (another installation, another repository, a token connection).
 */
function installationBreak(connection: { installationId: string | null; owner: string; repo: string }, event: string, payload: unknown): string | undefined {
  if (connection.installationId === null || typeof payload !== "object" || payload === null) return undefined;
  const { action, installation, repositories_removed: removed } = payload as { action?: unknown; installation?: { id?: unknown }; repositories_removed?: unknown };
  if (String(installation?.id) !== connection.installationId) return undefined;
  if (event === "installation" && action === "deleted") return "installation_removed";
  if (event === "installation" && action === "suspend") return "installation_suspended";
  if (event !== "installation_repositories" || action !== "removed" || !Array.isArray(removed)) return undefined;
  const full = `${connection.owner}/${connection.repo}`.toLowerCase();
  return removed.some((r: { full_name?: unknown }) => typeof r.full_name === "string" && r.full_name.toLowerCase() === full) ? "repository_removed" : undefined;
}

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
      const job = jobPayload(connection, event, deliveryId, payload);
      const answer = await takeDelivery(ctx, jobs, githubAdapter, { connectionId: connection.id, deliveryId, event, job });
      const reason = answer.duplicate ? undefined : installationBreak(connection, event, payload);
      if (reason !== undefined) await markBroken(ctx, githubAdapter, connection.id, reason);
      return reply.code(202).send(answer);
    },
  );
}
