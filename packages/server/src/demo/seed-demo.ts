import type { Kysely } from "kysely";
import { createApp } from "../apps/apps.js";
import type { Clock } from "../clock.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { createVersion } from "../roadmap/versions.js";
import { createWorkspace } from "../workspaces/workspaces.js";
import type { DialectName } from "../db/database.js";
import { seedDemoRequests } from "./demo-requests.js";

/** The fixed app key of the demo app. */
export const DEMO_APP_KEY = "app_demo";

/**
 * Seeds a demo workspace and app (key `app_demo`) when the database has no workspace at all.
 * Answers whether it seeded anything; of instances starting at once on one database, one does.
 */
export async function seedDemo(db: Kysely<Database>, clock: Clock, dialect: DialectName): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const any = await trx.selectFrom("workspaces").select("id").limit(1).executeTakeFirst();
    if (any !== undefined) return false;
    const { workspace } = await createWorkspace(trx, clock, { name: "Demo workspace", slug: "demo" }, null);
    const { row } = await createApp(
      trx,
      clock,
      workspace.id,
      { name: "Demo app", slug: "demo-app", websiteUrl: "https://example.com", allowedPlatforms: ["ios", "android", "web"] },
      { appKey: DEMO_APP_KEY },
    );
    await createVersion(trx, clock, row.id, { label: "1.0", released: true, description: "First public release" });
    await createVersion(trx, clock, row.id, { label: "1.1", released: false, description: "Next release" });
    await seedDemoRequests(trx, clock, dialect, row.id);
    return true;
  }).catch((error: unknown) => {
    // Another instance starting on the same database seeded it first (PostgreSQL).
    if (error instanceof ApiError && error.code === "slug_taken") return false;
    throw error;
  });
}
