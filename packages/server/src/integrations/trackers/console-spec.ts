import type { TSchema } from "typebox";
import type { Context } from "../../context.js";
import type { TrackerAdapter, TrackerConnectionRow, TrackerLinkRow } from "./adapter.js";

/** A route's OpenAPI words. */
export interface RouteDoc {
  summary: string;
  description?: string;
}

/** What one tracker's console routes need beyond the shared code: its schemas, its words, and its connection's shape. */
export interface TrackerConsoleSpec {
  adapter: TrackerAdapter;
  schemas: { connection: TSchema; created: TSchema; connect: TSchema; patch: TSchema; link: TSchema; createIssue: TSchema; linkIssue: TSchema };
  docs: { get: RouteDoc; connect: RouteDoc; patch: RouteDoc; disconnect: RouteDoc; getLink: RouteDoc; createIssue: RouteDoc; linkIssue: RouteDoc; unlink: RouteDoc };
  /** Makes the app's connection from a validated body (409 when it has one). */
  connect(ctx: Context, appId: string, body: unknown): Promise<TrackerConnectionRow>;
  /** Applies a validated patch to the app's connection. */
  patch(ctx: Context, appId: string, body: unknown): Promise<TrackerConnectionRow>;
  /** The connection as the console shows it. */
  view(ctx: Context, row: TrackerConnectionRow): Promise<unknown>;
  /** The answer to a new connection (the view, with whatever is shown only once). */
  created(ctx: Context, row: TrackerConnectionRow): Promise<unknown>;
  /** A link as the console shows it. */
  linkView(link: TrackerLinkRow, connection: TrackerConnectionRow): unknown;
  /** The title and body a create-issue body asks for. */
  issueInput(body: unknown): { title?: string | undefined; body?: string | undefined };
}
