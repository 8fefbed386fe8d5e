import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import type { JobRunner } from "./jobs/runner.js";
import { healthRoutes, type HealthDeps } from "./http/health.js";
import type { Context } from "./context.js";
import { appConsoleRoutes } from "./apps/console-routes.js";
import { publicConfigRoutes } from "./apps/public-routes.js";
import { authenticate } from "./console/auth.js";
import { consoleRoutes } from "./console/routes.js";
import { portabilityConsoleRoutes } from "./portability/console-routes.js";
import { dashboardRoutes } from "./console/dashboard-static.js";
import { invitationRoutes } from "./console/invitation-routes.js";
import { consoleSessionRoutes } from "./console/session-routes.js";
import { feedbackConsoleRoutes } from "./feedback/console-routes.js";
import { voteOnBehalfConsoleRoutes } from "./votes-on-behalf/console-routes.js";
import { feedbackPublicRoutes } from "./feedback/public-routes.js";
import { featureRequestConsoleRoutes } from "./feature-requests/console-routes.js";
import { commentConsoleRoutes } from "./feature-requests/comment-console-routes.js";
import { duplicateConsoleRoutes } from "./feature-requests/duplicate-routes.js";
import { recordBoardMoves } from "./feature-requests/events.js";
import { companyConsoleRoutes } from "./companies/console-routes.js";
import { featureRequestPublicRoutes } from "./feature-requests/public-routes.js";
import { registerPublicCors } from "./http/cors.js";
import { registerIdempotency } from "./http/idempotency.js";
import { consoleSecurity, SECURITY_SCHEMES } from "./http/openapi.js";
import { describeRoute } from "./http/route-description.js";
import { requireRouteDocs } from "./http/route-docs.js";
import { CONSOLE_BODY_LIMIT } from "./http/types.js";
import { intakeConsoleRoutes } from "./intake/console-routes.js";
import { intakePublicRoutes } from "./intake/public-routes.js";
import { boardConsoleRoutes } from "./boards/console-routes.js";
import { boardsPublicRoutes } from "./boards/public-routes.js";
import { tagConsoleRoutes } from "./tags/console-routes.js";
import { segmentConsoleRoutes } from "./segments/console-routes.js";
import { customFieldConsoleRoutes } from "./custom-fields/console-routes.js";
import { customFieldsPublicRoutes } from "./custom-fields/public-routes.js";
import { roadmapConsoleRoutes } from "./roadmap/console-routes.js";
import { roadmapPublicRoutes } from "./roadmap/public-routes.js";
import { uploadPublicRoutes } from "./uploads/public-routes.js";
import { userPublicRoutes } from "./users/public-routes.js";
import { portalRoutes } from "./portal/routes.js";
import { notificationPublicRoutes } from "./notifications/public-routes.js";
import { changelogConsoleRoutes } from "./changelog/console-routes.js";
import { changelogPublicRoutes } from "./changelog/public-routes.js";
import { changelogPreviewRoute } from "./changelog/preview-route.js";
import { subscriberConsoleRoutes } from "./changelog/subscriber-console-routes.js";
import { endUserConsoleRoutes } from "./users/console-routes.js";
import { webhookConsoleRoutes } from "./webhooks/console-routes.js";
import { githubConsoleRoutes } from "./integrations/github/console-routes.js";
import { githubWebhookRoutes } from "./integrations/github/webhook-routes.js";
import { linearConsoleRoutes } from "./integrations/linear/console-routes.js";
import { linearWebhookRoutes } from "./integrations/linear/webhook-routes.js";
import { mcpHttpRoutes } from "./mcp/http-routes.js";
import { archiveBoardFields } from "./custom-fields/field-archive.js";

/**
 * The route table: every scope of the server and the routes registered in it, in the order the
 * OpenAPI document lists them. The public scope answers any origin (CORS); the console scope
 * authenticates each request first; the dashboard's sign-in routes, the MCP server and the
 * trackers' webhooks have scopes of their own.
 */
export async function registerRoutes(app: FastifyInstance, ctx: Context, deps: { jobs: JobRunner; health: HealthDeps; dashboardDir: string }): Promise<void> {
  const { jobs, health } = deps;
  requireRouteDocs(app);
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Tidings API",
        version: "0.1.0",
        license: { name: "MIT", identifier: "MIT" },
        description: "Feedback, feature requests, roadmap and changelog. Errors: `{error, code?, details?}` (see docs/errors.md).",
      },
      servers: [{ url: ctx.config.publicUrl ?? "/", description: "This instance" }],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: describeRoute,
  });
  await app.register(swaggerUi, {
    routePrefix: "/docs",
    staticCSP: true,
    // Self-hosted instances often run on plain http inside a LAN: do not force https sub-requests.
    transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, ""),
  });

  // Public scope: CORS for any origin. The console scope below has none.
  await app.register(async (scope) => {
    const typed = scope.withTypeProvider<TypeBoxTypeProvider>();
    await registerPublicCors(scope);
    // Before the routes: it hooks every public POST as it is declared.
    registerIdempotency(typed, ctx);
    typed.get("/api/v1/openapi.json", { schema: { hide: true } }, async () => app.swagger());
    healthRoutes(typed, health);
    publicConfigRoutes(typed, ctx);
    roadmapPublicRoutes(typed, ctx);
    boardsPublicRoutes(typed, ctx);
    customFieldsPublicRoutes(typed, ctx);
    intakePublicRoutes(typed, ctx);
    featureRequestPublicRoutes(typed, ctx);
    feedbackPublicRoutes(typed, ctx);
    await uploadPublicRoutes(typed, ctx);
    userPublicRoutes(typed, ctx);
    await changelogPublicRoutes(typed, ctx, jobs);
    await notificationPublicRoutes(typed, ctx, jobs);
  });

  // GitHub's webhook deliveries: their own scope, where a JSON body stays raw text to be verified.
  await app.register(async (scope) => githubWebhookRoutes(scope.withTypeProvider<TypeBoxTypeProvider>(), ctx, jobs));
  // Linear's, likewise.
  await app.register(async (scope) => linearWebhookRoutes(scope.withTypeProvider<TypeBoxTypeProvider>(), ctx, jobs));

  // The public portal (/p/<APP_KEY>), its bundles and the script-tag widget: HTML, outside /api.
  await app.register(async (scope) => portalRoutes(scope.withTypeProvider<TypeBoxTypeProvider>(), ctx));

  await app.register(
    async (scope) => {
      const typed = scope.withTypeProvider<TypeBoxTypeProvider>();
      scope.addHook("onRoute", (route) => {
        route.schema = { ...route.schema, security: consoleSecurity(route.method) };
        route.bodyLimit = CONSOLE_BODY_LIMIT;
      });
      scope.addHook("onRequest", async (request) => {
        request.principal = await authenticate(ctx, request);
      });
      consoleRoutes(typed, ctx);
      invitationRoutes(typed, ctx);
      appConsoleRoutes(typed, ctx);
      roadmapConsoleRoutes(typed, ctx);
      boardConsoleRoutes(typed, ctx, { boardDeleted: archiveBoardFields, requestsMoved: recordBoardMoves });
      tagConsoleRoutes(typed, ctx);
      segmentConsoleRoutes(typed, ctx);
      customFieldConsoleRoutes(typed, ctx);
      featureRequestConsoleRoutes(typed, ctx);
      commentConsoleRoutes(typed, ctx);
      voteOnBehalfConsoleRoutes(typed, ctx);
      duplicateConsoleRoutes(typed, ctx);
      intakeConsoleRoutes(typed, ctx);
      feedbackConsoleRoutes(typed, ctx);
      changelogConsoleRoutes(typed, ctx, jobs);
      subscriberConsoleRoutes(typed, ctx);
      changelogPreviewRoute(typed, ctx);
      endUserConsoleRoutes(typed, ctx);
      companyConsoleRoutes(typed, ctx);
      webhookConsoleRoutes(typed, ctx, jobs);
      githubConsoleRoutes(typed, ctx, jobs);
      linearConsoleRoutes(typed, ctx, jobs);
      portabilityConsoleRoutes(typed, ctx);
    },
    { prefix: "/api/v1/console" },
  );

  // The MCP server over HTTP: authorised by a console API token of its own accord (docs/mcp.md).
  await app.register(async (scope) => mcpHttpRoutes(scope.withTypeProvider<TypeBoxTypeProvider>(), ctx));

  // People signing in to the dashboard: outside the bearer hook above (setup, login, logout).
  await app.register(
    async (scope) => {
      const typed = scope.withTypeProvider<TypeBoxTypeProvider>();
      scope.addHook("onRoute", (route) => {
        route.bodyLimit = CONSOLE_BODY_LIMIT;
      });
      consoleSessionRoutes(typed, ctx);
    },
    { prefix: "/api/v1/console/auth" },
  );
  dashboardRoutes(app, deps.dashboardDir);
}
