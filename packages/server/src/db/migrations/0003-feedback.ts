import type { Kysely } from "kysely";

// Frozen: never import application code here, never edit after release; add a new migration.
// Feedback submissions (the console inbox), uploaded attachments and upload sessions, and
// instance-wide settings (the secret that signs download links).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("server_settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("submissions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("end_user_id", "text", (c) => c.references("end_users.id").onDelete("set null"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("reporter_name", "text")
    .addColumn("reporter_email", "text")
    .addColumn("platform", "text", (c) => c.notNull())
    .addColumn("app_version", "text")
    .addColumn("build_number", "text")
    .addColumn("metadata", "text", (c) => c.notNull())
    .addColumn("search_text", "text", (c) => c.notNull())
    .addColumn("triage_status", "text", (c) => c.notNull())
    .addColumn("priority", "text")
    .addColumn("assigned_to", "text", (c) => c.references("console_users.id").onDelete("set null"))
    .addColumn("internal_note", "text")
    .addColumn("first_triaged_at", "text")
    .addColumn("resolved_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("submissions_workspace_created_idx").on("submissions").columns(["workspace_id", "created_at", "id"]).execute();
  await db.schema.createIndex("submissions_app_created_idx").on("submissions").columns(["app_id", "created_at"]).execute();
  await db.schema.createIndex("submissions_workspace_triage_idx").on("submissions").columns(["workspace_id", "triage_status"]).execute();

  await db.schema
    .createTable("upload_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("uploader_token_hash", "text")
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("upload_sessions_expires_idx").on("upload_sessions").column("expires_at").execute();

  await db.schema
    .createTable("uploads")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("app_id", "text", (c) => c.notNull().references("apps.id").onDelete("cascade"))
    .addColumn("session_id", "text", (c) => c.references("upload_sessions.id").onDelete("set null"))
    .addColumn("submission_id", "text", (c) => c.references("submissions.id").onDelete("set null"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("storage_key", "text", (c) => c.notNull().unique())
    .addColumn("client_file_id", "text")
    .addColumn("filename", "text", (c) => c.notNull())
    .addColumn("mime_type", "text", (c) => c.notNull())
    .addColumn("max_bytes", "integer", (c) => c.notNull())
    .addColumn("size", "integer")
    .addColumn("sha256", "text")
    .addColumn("uploader_token_hash", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("uploaded_at", "text")
    .addColumn("attached_at", "text")
    .execute();
  await db.schema.createIndex("uploads_unattached_idx").on("uploads").columns(["submission_id", "created_at"]).execute();
  await db.schema.createIndex("uploads_session_idx").on("uploads").column("session_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["uploads", "upload_sessions", "submissions", "server_settings"]) {
    await db.schema.dropTable(table).execute();
  }
}
