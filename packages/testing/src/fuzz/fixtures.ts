import type { App } from "../../../server/src/http/types.js";
import { consoleClient, createWorkspaceWithApp } from "../console-client.js";
import { multipartBody, png } from "../uploads-kit.js";
import { userHash } from "../../../server/src/users/identity.js";
import type { Hints } from "./values.js";

/** The world a fuzz run starts from: ids of every kind, and the credentials that reach handlers. */
export interface Fixtures {
  /** Known values by field or parameter name (`id` as `<segment before it>/id`). */
  hints: Hints;
  /** `Authorization` values of console principals: the bootstrap admin and a member's API token. */
  consoleAuth: { admin: string; member: string };
  /** Headers of an identified end user of the fixture app. */
  user: { "x-user-token": string; "x-user-hash": string };
  /** Bearer token of an open upload session (for `PUT /api/v1/uploads/{uploadId}`). */
  sessionToken: string;
}

function expect2xx(what: string, res: { statusCode: number; body: string }): Record<string, unknown> {
  if (res.statusCode < 200 || res.statusCode > 299) throw new Error(`fixture ${what}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return res.body === "" ? {} : (JSON.parse(res.body) as Record<string, unknown>);
}

function field(value: unknown, ...path: string[]): string {
  let node = value;
  for (const step of path) node = (node as Record<string, unknown> | undefined)?.[step];
  if (typeof node !== "string") throw new Error(`fixture: no ${path.join(".")} in ${JSON.stringify(value).slice(0, 300)}`);
  return node;
}

/**
 * Creates one of everything through the API (workspace, app, column, version, requests, comment,
 * vote, submission, changelog entry, subscriber, member, invitation, token, uploads), so
 * generated requests can name things that exist.
 */
export async function createFixtures(app: App, adminAuthorization: string): Promise<Fixtures> {
  const { wsId, appId, appKey, signingSecret } = await createWorkspaceWithApp(app, adminAuthorization, "fuzz");
  const c = consoleClient(app, adminAuthorization);
  const ok = async (what: string, call: Promise<{ status: number; body: unknown }>) => {
    const res = await call;
    return expect2xx(what, { statusCode: res.status, body: res.body === undefined ? "" : JSON.stringify(res.body) });
  };
  const ws = `/workspaces/${wsId}`;
  const column = await ok("column", c.post(`${ws}/apps/${appId}/columns`, { name: "Planned" }));
  const version = await ok("version", c.post(`${ws}/apps/${appId}/versions`, { label: "1.0" }));
  const columnId = field(column, "id");
  const versionId = field(version, "id");
  const fr1 = field(await ok("request", c.post(`${ws}/feature-requests`, { appId, title: "Dark mode", columnId })), "id");
  const fr2 = field(await ok("request", c.post(`${ws}/feature-requests`, { appId, title: "Offline sync", versionId })), "id");
  const comment = field(await ok("comment", c.post(`${ws}/feature-requests/${fr1}/comments`, { body: "Thanks!" })), "id");

  const token = "fuzz-user-1";
  const user = { "x-user-token": token, "x-user-hash": userHash(signingSecret, token) };
  const pub = async (what: string, method: "GET" | "POST" | "PUT", url: string, payload?: unknown) =>
    expect2xx(what, await app.inject({ method, url, headers: user, ...(payload === undefined ? {} : { payload: payload as object }) }));
  await pub("vote", "POST", `/api/v1/feature-requests/${fr1}/vote`, { appKey });
  await pub("attributes", "PUT", `/api/v1/public/apps/${appKey}/user`, { currency: "EUR" });
  const publicComment = field(await pub("public comment", "POST", `/api/v1/feature-requests/${fr1}/comments`, { body: "Me too" }), "id");
  const submissionId = field(await pub("feedback", "POST", "/api/v1/feedback", { appKey, title: "Crash", description: "On start" }), "submissionId");
  const entry = await ok("changelog", c.post(`${ws}/changelog`, { appId, title: "1.0", body: "First", publishNow: true, linkedRequestIds: [fr1] }));
  const changelogId = field(entry, "id");
  await pub("subscribe", "POST", `/api/v1/public/apps/${appKey}/changelog/subscribe`, { email: "reader@example.com" });
  const subscribers = await ok("subscribers", c.get(`${ws}/apps/${appId}/subscribers`));
  const subscriberId = field((subscribers.subscribers as unknown[])[0], "id");

  const member = await ok("member", c.post(`${ws}/members`, { email: "member@example.com", role: "member", displayName: "Mem" }));
  const memberId = field(member, "member", "id");
  const memberUserId = field(member, "member", "userId");
  const invitation = await ok("invitation", c.post(`${ws}/invitations`, { email: "invited@example.com", role: "member" }));
  const memberToken = await ok("token", c.post(`/users/${memberUserId}/tokens`, { name: "fuzz" }));

  const session = await pub("upload session", "POST", "/api/v1/uploads/sessions", {
    appKey,
    files: [1, 2, 3, 4].map((i) => ({ filename: `shot-${i}.png`, mimeType: "image/png", size: 64 })),
  });
  const slots = (session.uploads as Array<{ uploadId: string }>).map((slot) => slot.uploadId);
  const upload = multipartBody([{ name: "appKey", value: appKey }, { name: "file", filename: "shot.png", contentType: "image/png", data: png(64) }]);
  const uploaded = expect2xx(
    "image upload",
    await app.inject({ method: "POST", url: "/api/v1/uploads/images", headers: { ...user, ...upload.headers }, payload: upload.payload }),
  );
  const imageId = field(uploaded, "uploadId");
  const download = new URL(field(uploaded, "url"), "http://localhost");

  const page = await pub("list", "GET", `/api/v1/feature-requests?appKey=${appKey}&limit=1`);
  const comments = await pub("comments", "GET", `/api/v1/feature-requests/${fr1}/comments?limit=1`);
  const cursors = [page.nextCursor, comments.nextCursor].filter((v): v is string => typeof v === "string");

  const hints: Record<string, string[]> = {
    appKey: [appKey, "app_demo"],
    wsId: [wsId],
    appId: [appId],
    columnId: [columnId],
    columnIds: [columnId],
    versionId: [versionId],
    memberId: [memberId],
    tokenId: [field(memberToken, "id")],
    invitationId: [field(invitation, "invitation", "id")],
    token: [field(invitation, "token")],
    commentId: [comment, publicComment],
    parentId: [comment, publicComment],
    subscriberId: [subscriberId],
    userId: [memberUserId],
    assignedTo: [memberUserId, "unassigned"],
    uploadId: [imageId, ...slots],
    uploadIds: [imageId, ...slots],
    intoId: [fr2],
    ids: [fr1, fr2],
    linkedRequestIds: [fr1, fr2],
    submissionIds: [submissionId],
    "feature-requests/id": [fr1, fr2],
    "submissions/id": [submissionId],
    "changelog/id": [changelogId],
    cursor: cursors,
    expires: [download.searchParams.get("expires") ?? ""],
    sig: [download.searchParams.get("sig") ?? ""],
    userToken: [token],
    email: ["member@example.com", "reader@example.com"],
  };
  return {
    hints,
    consoleAuth: { admin: adminAuthorization, member: `Bearer ${field(memberToken, "token")}` },
    user,
    sessionToken: field(session, "sessionToken"),
  };
}
