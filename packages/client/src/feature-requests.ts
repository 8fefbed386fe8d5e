import { compact, nonBlank } from "./blank.js";
import type { UserCallOptions, UserPostOptions } from "./call-options.js";
import { someFields } from "./custom-fields.js";
import { enc, type ClientSession } from "./session.js";
import type { CustomFieldValues, FeatureRequestItem, FeatureRequestPage, FeatureRequestSort, FollowResult, ProposeResult, VoteResult } from "./types.js";
import { postIntake } from "./verification.js";

export interface ListFeatureRequestsParams extends UserCallOptions {
  /** 1–200. @default 50 */
  limit?: number | undefined;
  offset?: number | undefined;
  /** Keyset cursor from `nextCursor`; the server ignores `offset` with it. */
  cursor?: string | undefined;
  /** Search text (paced by the server: 30 searches per minute per IP). */
  q?: string | undefined;
  versionId?: string | undefined;
  sort?: FeatureRequestSort | undefined;
  /** A board's slug: only its requests. @default every board the caller may see */
  board?: string | undefined;
  /** Public tags' slugs (up to 5): only requests carrying every one. @default no tag filter */
  tags?: readonly string[] | undefined;
}

/** A feature-request proposal. */
export interface FeatureRequestDraft {
  title: string;
  details?: string | undefined;
  requesterName?: string | undefined;
  requesterEmail?: string | undefined;
  /** The slug of the board it goes on. @default the app's default board */
  board?: string | undefined;
  /** Values of the custom fields the board's proposal form asks for, by key (see `listCustomFields`). */
  fields?: CustomFieldValues | undefined;
  /** Wins over `verificationTokenProvider`. */
  verificationToken?: string | undefined;
}

/** `GET /feature-requests`: a page, personalised by the user token sent per `tokenTransport`. */
export async function listFeatureRequests(s: ClientSession, params: ListFeatureRequestsParams): Promise<FeatureRequestPage> {
  const token = await s.identity.userToken(params.userToken);
  const transport = s.client.tokenTransport;
  const headers = await s.identity.userHeaders(token);
  if (transport === "query") delete headers["X-User-Token"];
  const q = params.q?.trim();
  const data = await s.json<Partial<FeatureRequestPage>>(
    {
      method: "GET",
      path: "/api/v1/feature-requests",
      query: {
        appKey: s.client.appKey,
        limit: params.limit ?? 50,
        offset: params.cursor === undefined ? (params.offset ?? 0) : undefined,
        cursor: params.cursor,
        q: q === "" ? undefined : q,
        versionId: params.versionId,
        sort: params.sort,
        board: nonBlank(params.board)?.trim(),
        tag: params.tags !== undefined && params.tags.length > 0 ? params.tags : undefined,
        userToken: transport === "header" ? undefined : token,
      },
      headers,
    },
    params,
  );
  const requests = data.requests ?? [];
  const total = data.total ?? requests.length;
  return { requests, total, hasMore: data.hasMore ?? (params.offset ?? 0) + requests.length < total, nextCursor: data.nextCursor ?? null };
}

/** `GET /feature-requests/<id>` with the user's token, so `hasVoted` is theirs. */
export async function getFeatureRequest(s: ClientSession, id: string, options: UserCallOptions): Promise<FeatureRequestItem> {
  const headers = await s.identity.headers(options);
  return s.json<FeatureRequestItem>(
    { method: "GET", path: `/api/v1/feature-requests/${enc(id)}`, query: { appKey: s.client.appKey }, headers },
    options,
  );
}

/** `GET /feature-requests/similar`; a blank title answers `[]` unasked. */
export async function findSimilarFeatureRequests(s: ClientSession, title: string, options: UserCallOptions & { limit?: number | undefined }): Promise<FeatureRequestItem[]> {
  const trimmed = title.trim();
  if (trimmed === "") return [];
  const headers = await s.identity.headers(options);
  const data = await s.json<{ requests?: FeatureRequestItem[] }>(
    { method: "GET", path: "/api/v1/feature-requests/similar", query: { appKey: s.client.appKey, title: trimmed.slice(0, 400), limit: options.limit }, headers },
    options,
  );
  return data.requests ?? [];
}

/** `POST /feature-requests`, through the intake's verification. */
export async function submitFeatureRequest(s: ClientSession, draft: FeatureRequestDraft, options: UserPostOptions): Promise<ProposeResult> {
  const token = await s.identity.userToken(options.userToken);
  const body = compact({
    appKey: s.client.appKey,
    title: draft.title.trim(),
    description: (draft.details ?? "").trim(),
    requesterName: nonBlank(draft.requesterName?.trim()),
    requesterEmail: nonBlank(draft.requesterEmail?.trim()),
    requesterToken: token,
    board: nonBlank(draft.board)?.trim(),
    fields: someFields(draft.fields),
  });
  return postIntake<ProposeResult>(s, "/api/v1/feature-requests", body, draft.verificationToken, await s.identity.userHeaders(token), options);
}

/** `POST` (toggle) or `DELETE` (remove) `/feature-requests/<id>/vote`. */
export async function vote(
  s: ClientSession,
  method: "POST" | "DELETE",
  id: string,
  options: UserPostOptions & { shipNotifyEmail?: string | undefined },
): Promise<VoteResult> {
  const headers = await s.identity.headers(options);
  return s.json<VoteResult>(
    { method, path: `/api/v1/feature-requests/${enc(id)}/vote`, json: compact({ appKey: s.client.appKey, shipNotifyEmail: options.shipNotifyEmail }), headers },
    options,
  );
}

/** `POST` (follow) or `DELETE` (unfollow) `/feature-requests/<id>/subscription`. */
export async function follow(s: ClientSession, method: "POST" | "DELETE", id: string, options: UserPostOptions & { email?: string | undefined }): Promise<FollowResult> {
  const headers = await s.identity.headers(options);
  return s.json<FollowResult>(
    { method, path: `/api/v1/feature-requests/${enc(id)}/subscription`, json: compact({ email: nonBlank(options.email)?.trim() }), headers },
    options,
  );
}
