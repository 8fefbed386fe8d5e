import { SessionStateSchema, SetupBodySchema } from "@tidings/protocol";
import { isoNow } from "../clock.js";
import type { Context } from "../context.js";
import { ApiError } from "../http/errors.js";
import type { App } from "../http/types.js";
import { enforceRateLimit } from "../rate-limit/enforce.js";
import { slugify, uniqueSlug } from "../slug.js";
import { addMember } from "../workspaces/member-changes.js";
import { createWorkspace } from "../workspaces/workspaces.js";
import { ensureConsoleUser } from "../workspaces/console-accounts.js";
import { setAccountPassword } from "./account-password.js";
import { hashPassword } from "./passwords.js";
import { requireSameOrigin } from "./csrf.js";
import { requireSetupCode, setupRequired } from "./setup-code.js";
import { LOGIN_LIMIT_MESSAGE, normalizeEmail, signIn } from "./sign-in.js";

const tags = ["console auth"];
const SETUP_MARKER = "console_setup_done";

/** First-run setup: the first owner, with the code the server printed at start-up. */
export function setupRoute(app: App, ctx: Context): void {
  const db = ctx.db.kysely;

  app.post(
    "/setup",
    {
      schema: {
        tags,
        summary:
          "First run: with the setup code the server printed at start-up, create the first owner (only while no console user has a password) and sign in",
        body: SetupBodySchema,
        response: { 201: SessionStateSchema },
      },
    },
    async (request, reply) => {
      await enforceRateLimit(ctx, request, "login", LOGIN_LIMIT_MESSAGE);
      requireSameOrigin(ctx, request);
      if (!(await setupRequired(db))) throw new ApiError("setup_done");
      // Before the argon2 hash, so wrong guesses cost us little; each one spends the login bucket above.
      await requireSetupCode(ctx, request.body.setupCode);
      const email = normalizeEmail(request.body.email);
      const passwordHash = await hashPassword(request.body.password);
      let userId: string;
      try {
        userId = await db.transaction().execute(async (trx) => {
          // The marker's primary key makes a concurrent second setup fail instead of creating two owners.
          await trx.insertInto("serverSettings").values({ key: SETUP_MARKER, value: email, createdAt: isoNow(ctx.clock) }).execute();
          if (!(await setupRequired(trx))) throw new ApiError("setup_done");
          const account = await ensureConsoleUser(trx, ctx.clock, email);
          await setAccountPassword(trx, ctx, account, request.body.name, passwordHash, null);
          const id = account.id;
          const demo = await trx.selectFrom("workspaces").select("id").where("slug", "=", "demo").executeTakeFirst();
          let workspaceId = demo?.id;
          if (workspaceId === undefined) {
            const name = request.body.workspaceName ?? "My workspace";
            const taken = new Set((await trx.selectFrom("workspaces").select("slug").execute()).map((w) => w.slug));
            workspaceId = (await createWorkspace(trx, ctx.clock, { name, slug: uniqueSlug(slugify(name, "workspace"), taken) }, null)).workspace.id;
          }
          await addMember(trx, ctx.clock, workspaceId, { email, role: "owner" });
          return id;
        });
      } catch (error) {
        if (error instanceof ApiError) throw error;
        if (!(await setupRequired(db))) throw new ApiError("setup_done");
        const marker = await db.selectFrom("serverSettings").select("key").where("key", "=", SETUP_MARKER).executeTakeFirst();
        if (marker !== undefined) throw new ApiError("setup_done");
        throw error;
      }
      return reply.code(201).send(await signIn(ctx, request, reply, userId));
    },
  );
}
