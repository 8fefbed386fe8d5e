import { sql } from "kysely";
import type { Db } from "../db/database.js";

/**
 * After an import, every imported app has its boards and every request one of its app's boards.
 * An archive written before boards existed carries none: its apps get the default board that
 * migration 0026 gives existing apps (same id rule, `app_x` → `brd_x`), and requests whose board
 * is missing or belongs to no board of their app are put on the app's default board.
 */
export async function settleBoards(db: Db, appIds: readonly string[]): Promise<void> {
  for (const appId of appIds) {
    await db.kysely.transaction().execute(async (trx) => {
      const hasDefault = await trx.selectFrom("boards").select("id").where("appId", "=", appId).where("isDefault", "=", 1).executeTakeFirst();
      if (hasDefault === undefined) {
        const app = await trx.selectFrom("apps").select(["id", "createdAt"]).where("id", "=", appId).executeTakeFirst();
        if (app === undefined) return;
        const taken = await trx.selectFrom("boards").select("slug").where("appId", "=", appId).execute();
        const slug = taken.some((b) => b.slug === "feature-requests") ? `feature-requests-${appId.slice(4, 10)}` : "feature-requests";
        await trx
          .insertInto("boards")
          .values({ id: `brd_${appId.slice(4)}`, appId, name: "Feature requests", slug, description: "", position: taken.length, visibility: "public", accessRule: null, isDefault: 1, createdAt: app.createdAt, updatedAt: app.createdAt })
          .onConflict((oc) => oc.column("id").doNothing())
          .execute();
      }
      const standard = await trx.selectFrom("boards").select("id").where("appId", "=", appId).where("isDefault", "=", 1).executeTakeFirstOrThrow();
      await trx
        .updateTable("featureRequests")
        .set({ boardId: standard.id })
        .where("appId", "=", appId)
        .where(sql<boolean>`board_id not in (select b.id from boards b where b.app_id = ${appId})`)
        .execute();
    });
  }
}
