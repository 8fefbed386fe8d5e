import type { ErrorCode } from "@tidings/protocol";
import type { Selectable } from "kysely";
import type { Context } from "../../context.js";
import type { TrackerConnectionsTable, TrackerIssueLinksTable, TrackerProvider } from "../../db/schema.js";
import type { ColumnRow } from "../../roadmap/columns.js";

export type TrackerConnectionRow = Selectable<TrackerConnectionsTable>;
export type TrackerLinkRow = Selectable<TrackerIssueLinksTable>;
export type { TrackerProvider };

/** An issue as Tidings reads it from any tracker. */
export interface TrackerIssue {
  /** The tracker's id of the issue (GitHub: its number; Linear: its UUID). */
  id: string;
  /** How people name it: `#42`, `ENG-123`. */
  key: string;
  url: string;
  title: string;
  /** The issue's body (GitHub) or description (Linear), where the demand block lives. */
  body: string;
  /** Its state, when the tracker's answer carries one. */
  state: string | null;
  /** Why this is no issue to link (a GitHub pull request), or null. */
  unlinkable: string | null;
}

/** Why a call to a tracker failed, as the caller acts on it. */
export type TrackerFailure =
  /** A rate limit: call again no sooner than `retryAfterMs` from now. */
  | { kind: "rate_limited"; retryAfterMs: number }
  /** The credential is revoked, expired or wrong. */
  | { kind: "unauthorized" }
  /** The credential lacks a permission or access. */
  | { kind: "forbidden" }
  /** The issue (or, for GitHub, possibly the repository) does not exist for this credential. */
  | { kind: "not_found" }
  /** The connection can no longer reach its target at all (a removed GitHub App installation…): `reason` is why. */
  | { kind: "gone"; reason: string }
  /** Any other answer; `status` when it was an HTTP answer. */
  | { kind: "error"; status?: number; message: string }
  /** No answer: refused address, network error or timeout. */
  | { kind: "unreachable"; message: string };

/** The calls the sync makes to one connection's tracker; each failure is thrown and read with {@link TrackerAdapter.classify}. */
export interface TrackerApi {
  getIssue(issueId: string): Promise<TrackerIssue>;
  createIssue(input: { title: string; body: string }): Promise<TrackerIssue>;
  setIssueBody(issueId: string, body: string): Promise<void>;
  /** Whether the connection's target (the repository) still answers, checked after a 404 on an issue; undefined: it does. */
  probeTarget?(): Promise<TrackerFailure | undefined>;
}

/** The error codes a tracker answers with. */
export interface TrackerErrorCodes {
  notConnected: ErrorCode;
  alreadyConnected: ErrorCode;
  broken: ErrorCode;
  issueNotFound: ErrorCode;
  linkNotFound: ErrorCode;
  alreadyLinked: ErrorCode;
  unavailable: ErrorCode;
}

/** What a queued webhook delivery changes: the issue, its new state, and the column it moves its request to. */
export interface TrackerChange {
  issueId: string;
  issueState: string;
  column(connection: TrackerConnectionRow, columns: readonly ColumnRow[]): ColumnRow | undefined;
}

/**
 * One issue tracker, as the shared link, sync and console code drives it. Everything a tracker
 * does differently (its API, how its errors read, its column mapping, its webhooks' payloads)
 * is behind this; everything else (tables, jobs, demand blocks, broken connections) is shared.
 */
export interface TrackerAdapter {
  provider: TrackerProvider;
  /** Its name as people know it: `GitHub`. */
  service: string;
  /** The prefix of its connection and link ids. */
  ids: { connection: string; link: string };
  codes: TrackerErrorCodes;
  /** A client for one connection; `onPause` hears when the tracker asks for a pause. */
  api(ctx: Context, connection: TrackerConnectionRow, onPause: (until: Date) => Promise<void>): TrackerApi;
  classify(error: unknown, nowMs: number): TrackerFailure;
  /** The broken reason when a create answers 404 or a probe finds the target gone; undefined: a 404 is a missing issue. */
  targetGoneReason?: string;
  /** The issue id a console reference (number, key, URL) names; throws 404 `issueNotFound` for one it cannot. */
  issueIdOf(ref: number | string, connection: TrackerConnectionRow): string;
  /** A queued webhook job's payload, read. */
  change(payload: unknown): TrackerChange;
  /** The owners' mail when the connection breaks. */
  brokenNotice(connection: TrackerConnectionRow, reason: string): { target: string; why: string; fix: string };
}
