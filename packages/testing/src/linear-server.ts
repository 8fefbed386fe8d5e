import { createHmac, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** One GraphQL operation as the stand-in Linear saw it, named as the SDK names it (`issue`, `createIssue`, `updateIssue`). */
export interface LinearCall {
  operation: string;
  authorization: string | undefined;
  variables: Record<string, unknown>;
}

/** An answer given instead of the normal one (a rate limit, an outage). */
export interface LinearReply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** An issue as the stand-in keeps it. */
export interface StoredLinearIssue {
  id: string;
  identifier: string;
  title: string;
  description: string | null;
  teamId: string;
  stateType: string;
}

const gqlError = (message: string, type: string, code: string) => ({ errors: [{ message, extensions: { type, code, userPresentableMessage: message } }], data: null });

/**
 * A local stand-in for Linear's GraphQL API (the edge Tidings does not own). It reads the
 * operation name of each query `@linear/sdk` sends and answers the ones Tidings uses: `issue`
 * (by id or identifier), `createIssue` (`issueCreate`) and `updateIssue` (`issueUpdate`). It
 * checks the `Authorization` header against the API key (an authentication error with HTTP 401
 * for any other), records every call, and answers what {@link LinearServer.answerNext} queued first.
 *
 * @example
 * ```ts
 * const linear = await startLinearServer({ apiKey: "lin_api_test…", teamId: "team-eng", teamKey: "ENG" });
 * const issue = linear.addIssue({ title: "Dark mode", description: "Please" });
 * ```
 */
export async function startLinearServer(options: { apiKey: string; teamId: string; teamKey: string }) {
  const keys = new Set([options.apiKey]);
  const issues = new Map<string, StoredLinearIssue>();
  const calls: LinearCall[] = [];
  const queued: LinearReply[] = [];
  let next = 1;

  const find = (ref: string) => issues.get(ref) ?? [...issues.values()].find((i) => i.identifier.toLowerCase() === ref.toLowerCase());
  const issueJson = (issue: StoredLinearIssue) => ({
    __typename: "Issue",
    id: issue.id,
    identifier: issue.identifier,
    title: issue.title,
    description: issue.description,
    url: `https://linear.app/acme/issue/${issue.identifier}/${issue.title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`,
    number: Number(issue.identifier.split("-")[1]),
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    team: { id: issue.teamId },
    state: { id: `state-${issue.stateType}` },
    // Non-null fields of the SDK's issue fragment that it reads without a check.
    reactions: [],
    labelIds: [],
    previousIdentifiers: [],
    sharedAccess: { isShared: false, sharedWithCount: 0, viewerHasOnlySharedAccess: false, disallowedIssueFields: [], sharedWithUsers: [] },
  });
  const addIssue = (input: { title: string; description?: string | null; teamId?: string; stateType?: string }): StoredLinearIssue => {
    const issue: StoredLinearIssue = { id: randomUUID(), identifier: `${options.teamKey}-${next++}`, title: input.title, description: input.description ?? null, teamId: input.teamId ?? options.teamId, stateType: input.stateType ?? "unstarted" };
    issues.set(issue.id, issue);
    return issue;
  };

  const answer = (query: string, variables: Record<string, unknown>): { status: number; body: unknown } => {
    const operation = /^\s*(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? "";
    switch (operation) {
      case "issue": {
        const issue = find(String(variables.id));
        return issue === undefined ? { status: 200, body: gqlError("Entity not found: Issue", "invalid input", "INPUT_ERROR") } : { status: 200, body: { data: { issue: issueJson(issue) } } };
      }
      case "createIssue": {
        const input = variables.input as { teamId: string; title: string; description?: string };
        const issue = addIssue({ title: input.title, description: input.description ?? null, teamId: input.teamId });
        return { status: 200, body: { data: { issueCreate: { __typename: "IssuePayload", success: true, lastSyncId: 1, issue: { id: issue.id } } } } };
      }
      case "updateIssue": {
        const issue = find(String(variables.id));
        if (issue === undefined) return { status: 200, body: gqlError("Entity not found: Issue", "invalid input", "INPUT_ERROR") };
        const input = variables.input as { description?: string };
        if (input.description !== undefined) issue.description = input.description;
        return { status: 200, body: { data: { issueUpdate: { __typename: "IssuePayload", success: true, lastSyncId: 2, issue: { id: issue.id } } } } };
      }
      default:
        return { status: 400, body: gqlError(`Unknown operation ${operation}`, "graphql error", "GRAPHQL_VALIDATION_FAILED") };
    }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const { query, variables } = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as { query?: string; variables?: Record<string, unknown> };
      const authorization = req.headers.authorization;
      calls.push({ operation: /^\s*(?:query|mutation)\s+(\w+)/.exec(query ?? "")?.[1] ?? "", authorization, variables: variables ?? {} });
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(JSON.stringify(body));
      };
      const reply = queued.shift();
      if (reply !== undefined) return send(reply.status, reply.body ?? {}, reply.headers);
      if (authorization === undefined || !keys.has(authorization)) return send(401, gqlError("Authentication required, not authenticated", "authentication error", "AUTHENTICATION_ERROR"));
      const { status, body } = answer(query ?? "", variables ?? {});
      send(status, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://localhost:${(server.address() as AddressInfo).port}/graphql`;

  return {
    /** The GraphQL endpoint to give `LinearClient` as `apiUrl`. */
    url,
    calls,
    issues,
    addIssue,
    /** Calls of one operation (`issue`, `createIssue`, `updateIssue`). */
    callsTo: (operation: string) => calls.filter((c) => c.operation === operation),
    /** Answers the next call with `reply` instead (a rate limit: `rateLimitedReply()`). */
    answerNext: (reply: LinearReply) => void queued.push(reply),
    /** Revokes an API key: calls with it get an authentication error. */
    revoke: (key: string) => void keys.delete(key),
    allow: (key: string) => void keys.add(key),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type LinearServer = Awaited<ReturnType<typeof startLinearServer>>;

/** Linear's rate-limit answer: HTTP 400 with a `RATELIMITED` GraphQL error, or HTTP 429; `retry-after` in seconds when given. */
export function rateLimitedReply(options: { status?: 400 | 429; retryAfterSeconds?: number } = {}): LinearReply {
  return {
    status: options.status ?? 400,
    headers: options.retryAfterSeconds === undefined ? {} : { "retry-after": String(options.retryAfterSeconds) },
    body: gqlError("Rate limit exceeded", "ratelimited", "RATELIMITED"),
  };
}

/**
 * An Issue `update` webhook payload as Linear documents it: the issue in `data` with its new
 * state, the previous `stateId` in `updatedFrom`, and `webhookTimestamp` in ms.
 */
export function linearIssueStateChanged(issue: { id: string; identifier: string; teamId: string }, stateType: string, webhookTimestamp: number): Record<string, unknown> {
  return {
    action: "update",
    type: "Issue",
    createdAt: new Date(webhookTimestamp).toISOString(),
    organizationId: "org-acme",
    url: `https://linear.app/acme/issue/${issue.identifier}`,
    webhookId: "webhook-1",
    webhookTimestamp,
    data: { id: issue.id, identifier: issue.identifier, teamId: issue.teamId, stateId: `state-${stateType}`, state: { id: `state-${stateType}`, name: stateType, type: stateType, color: "#5e6ad2" } },
    updatedFrom: { stateId: "state-previous", updatedAt: new Date(webhookTimestamp - 1000).toISOString() },
  };
}

/** The headers Linear sends with a delivery: `Linear-Signature` (hex HMAC-SHA256 of the body), `Linear-Delivery`, `Linear-Event`. */
export function linearDeliveryHeaders(secret: string, body: string, deliveryId: string = randomUUID()): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": "Linear-Webhook",
    "linear-event": "Issue",
    "linear-delivery": deliveryId,
    "linear-signature": createHmac("sha256", secret).update(body).digest("hex"),
  };
}
