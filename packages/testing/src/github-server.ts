import { createHmac, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { importSPKI, jwtVerify } from "jose";
import type { Issue, IssuesClosedEvent, IssuesLabeledEvent, IssuesReopenedEvent, Label, Repository, User } from "@octokit/webhooks-types";

/** One call as the stand-in GitHub saw it. */
export interface GithubCall {
  method: string;
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown> | undefined;
}

/** An answer given instead of the normal one (a rate limit, an outage). */
export interface GithubReply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** An issue as the stand-in keeps it. */
export interface StoredIssue {
  number: number;
  title: string;
  body: string | null;
  state: "open" | "closed";
  pull?: boolean;
}

/**
 * A local stand-in for GitHub's REST API (the edge Tidings does not own), speaking the documented
 * endpoints Tidings calls: `GET /repos/{owner}/{repo}`, `GET` and `PATCH
 * /repos/{owner}/{repo}/issues/{n}`, `POST /repos/{owner}/{repo}/issues`, and, for a GitHub App
 * given in `app`, `POST /app/installations/{id}/access_tokens` (the app's JWT verified with `jose`
 * against its public key; the token minted is accepted from then on). It checks the bearer
 * token (401 "Bad credentials" for any other), records every call, and answers what
 * {@link GithubServer.answerNext} queued before the normal answer (rate limits).
 *
 * @example
 * ```ts
 * const github = await startGithubServer({ token: "github_pat_test…", repositories: ["acme/notes"] });
 * github.issues("acme/notes").set(7, { number: 7, title: "Dark mode", body: "Please", state: "open" });
 * ```
 */
export async function startGithubServer(options: { token: string; repositories: string[]; app?: GithubAppOptions }) {
  const tokens = new Set([options.token]);
  const installations = new Map<string, "active" | "suspended">((options.app?.installations ?? []).map((id) => [id, "active"]));
  const appKey = options.app === undefined ? undefined : await importSPKI(options.app.publicKey, "RS256");
  const now = () => options.app?.now?.() ?? new Date();
  let minted = 0;
  const repos = new Map<string, Map<number, StoredIssue>>(options.repositories.map((r) => [r.toLowerCase(), new Map()]));
  const calls: GithubCall[] = [];
  const queued: GithubReply[] = [];
  let headersOnSuccess: Record<string, string> = {};
  let url = "";

  const issueJson = (full: string, issue: StoredIssue) => ({
    id: 1000 + issue.number,
    number: issue.number,
    title: issue.title,
    body: issue.body,
    state: issue.state,
    html_url: `https://github.com/${full}/issues/${issue.number}`,
    url: `${url}/repos/${full}/issues/${issue.number}`,
    ...(issue.pull === true ? { pull_request: { url: `${url}/repos/${full}/pulls/${issue.number}` } } : {}),
  });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const call: GithubCall = { method: req.method ?? "GET", path: req.url ?? "/", authorization: req.headers.authorization, body: text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>) };
      calls.push(call);
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
        res.end(JSON.stringify(body));
      };
      const next = queued.shift();
      if (next !== undefined) return send(next.status, next.body ?? { message: "queued answer" }, next.headers);
      const installation = /^\/app\/installations\/([^/]+)\/access_tokens$/.exec(new URL(call.path, "http://x").pathname);
      if (installation !== null && call.method === "POST") {
        // GitHub's answer to an app asking for an installation token: the app's JWT, signed with its private key, names the app.
        const jwt = /^bearer (.+)$/i.exec(call.authorization ?? "")?.[1] ?? "";
        void (async () => {
          const verified = appKey === undefined ? undefined : await jwtVerify(jwt, appKey, { algorithms: ["RS256"] }).catch(() => undefined);
          if (verified === undefined || String(verified.payload.iss) !== options.app?.appId) return send(401, { message: "A JSON web token could not be decoded" });
          const state = installations.get(installation[1]!);
          if (state === undefined) return send(404, { message: "Not Found" });
          if (state === "suspended") return send(403, { message: "This installation has been suspended" });
          const token = `ghs_${randomUUID().replaceAll("-", "")}`;
          tokens.add(token);
          minted++;
          send(201, { token, expires_at: new Date(now().getTime() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z"), permissions: { issues: "write", metadata: "read" }, repository_selection: "selected" });
        })();
        return;
      }
      const token = /^(?:token|bearer) (.+)$/i.exec(call.authorization ?? "")?.[1];
      if (token === undefined || !tokens.has(token)) return send(401, { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" });
      const match = /^\/repos\/([^/]+)\/([^/]+)(?:\/issues(?:\/(\d+))?)?$/.exec(new URL(call.path, "http://x").pathname);
      const full = match === null ? "" : `${match[1]}/${match[2]}`;
      const issues = repos.get(full.toLowerCase());
      if (match === null || issues === undefined) return send(404, { message: "Not Found" });
      const isIssues = call.path.includes("/issues");
      const number = match[3] === undefined ? undefined : Number(match[3]);
      if (!isIssues && call.method === "GET") return send(200, { id: 1, name: match[2], full_name: full }, headersOnSuccess);
      if (isIssues && number === undefined && call.method === "POST") {
        const issue: StoredIssue = { number: issues.size + 1, title: String(call.body?.title ?? ""), body: (call.body?.body as string | undefined) ?? null, state: "open" };
        issues.set(issue.number, issue);
        return send(201, issueJson(full, issue), headersOnSuccess);
      }
      const issue = number === undefined ? undefined : issues.get(number);
      if (issue === undefined) return send(404, { message: "Not Found" });
      if (call.method === "GET") return send(200, issueJson(full, issue), headersOnSuccess);
      if (call.method === "PATCH") {
        if (typeof call.body?.body === "string") issue.body = call.body.body;
        if (typeof call.body?.title === "string") issue.title = call.body.title;
        return send(200, issueJson(full, issue), headersOnSuccess);
      }
      return send(404, { message: "Not Found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    /** The API base URL to give a connection. */
    url,
    calls,
    /** The issues of a repository, to seed or read. */
    issues: (repository: string): Map<number, StoredIssue> => repos.get(repository.toLowerCase())!,
    /** Removes a repository: its calls answer 404 from now on. */
    removeRepository: (repository: string) => void repos.delete(repository.toLowerCase()),
    /** Adds a repository (again) with no issues. */
    addRepository: (repository: string) => void repos.set(repository.toLowerCase(), new Map()),
    /** Revokes a token: calls with it answer 401 from now on. */
    revoke: (token: string) => void tokens.delete(token),
    /** Accepts another token from now on (a new one the team created). */
    allowToken: (token: string) => void tokens.add(token),
    /** How many installation tokens were minted. */
    minted: () => minted,
    /** Uninstalls (or suspends) an installation of the app: its token requests answer 404 (403) from now on. */
    removeInstallation: (id: string) => void installations.delete(id),
    suspendInstallation: (id: string) => void installations.set(id, "suspended"),
    /** Answers the next calls with these replies, in order, before any normal answer. */
    answerNext: (...replies: GithubReply[]) => void queued.push(...replies),
    /** Headers every later successful answer carries (`x-ratelimit-remaining`, …). */
    setSuccessHeaders: (headers: Record<string, string>) => void (headersOnSuccess = headers),
    /** Calls of one method whose path ends with `suffix`. */
    callsTo: (method: string, suffix: string) => calls.filter((c) => c.method === method && new URL(c.path, "http://x").pathname.endsWith(suffix)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A GitHub App the stand-in knows: its id, the public half of its key (SPKI PEM), its installations, and the clock its tokens expire by. */
export interface GithubAppOptions {
  appId: string;
  publicKey: string;
  installations: string[];
  now?: () => Date;
}

export type GithubServer = Awaited<ReturnType<typeof startGithubServer>>;

const AT = "2026-01-01T00:00:00Z";

/** A GitHub user as webhook payloads carry it. */
export function githubUser(login: string, id = 1): User {
  const api = `https://api.github.com/users/${login}`;
  return {
    login,
    id,
    node_id: `U_${id}`,
    avatar_url: `https://avatars.githubusercontent.com/u/${id}`,
    gravatar_id: "",
    url: api,
    html_url: `https://github.com/${login}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type: "User",
    site_admin: false,
  };
}

/** A repository as webhook payloads carry it. */
export function githubRepository(fullName: string): Repository {
  const [owner, name] = fullName.split("/") as [string, string];
  const api = `https://api.github.com/repos/${fullName}`;
  const urls = Object.fromEntries(
    (
      [
        "forks", "keys", "collaborators", "teams", "hooks", "issue_events", "events", "assignees", "branches", "tags", "blobs", "git_tags", "git_refs",
        "trees", "statuses", "languages", "stargazers", "contributors", "subscribers", "subscription", "commits", "git_commits", "comments",
        "issue_comment", "contents", "compare", "merges", "archive", "downloads", "issues", "pulls", "milestones", "notifications", "labels",
        "releases", "deployments",
      ] as const
    ).map((key) => [`${key}_url`, `${api}/${key}`]),
  ) as Record<`${"forks" | "keys" | "collaborators" | "teams" | "hooks" | "issue_events" | "events" | "assignees" | "branches" | "tags" | "blobs" | "git_tags" | "git_refs" | "trees" | "statuses" | "languages" | "stargazers" | "contributors" | "subscribers" | "subscription" | "commits" | "git_commits" | "comments" | "issue_comment" | "contents" | "compare" | "merges" | "archive" | "downloads" | "issues" | "pulls" | "milestones" | "notifications" | "labels" | "releases" | "deployments"}_url`, string>;
  return {
    id: 4242,
    node_id: "R_4242",
    name,
    full_name: fullName,
    private: false,
    owner: githubUser(owner, 2),
    html_url: `https://github.com/${fullName}`,
    description: null,
    fork: false,
    url: api,
    ...urls,
    created_at: AT,
    updated_at: AT,
    pushed_at: AT,
    git_url: `git://github.com/${fullName}.git`,
    ssh_url: `git@github.com:${fullName}.git`,
    clone_url: `https://github.com/${fullName}.git`,
    svn_url: `https://github.com/${fullName}`,
    homepage: null,
    size: 1,
    stargazers_count: 0,
    watchers_count: 0,
    language: "TypeScript",
    has_issues: true,
    has_projects: false,
    has_downloads: true,
    has_wiki: false,
    has_pages: false,
    forks_count: 0,
    mirror_url: null,
    archived: false,
    open_issues_count: 1,
    license: null,
    forks: 0,
    open_issues: 1,
    watchers: 0,
    default_branch: "main",
    is_template: false,
    web_commit_signoff_required: false,
    topics: [],
    visibility: "public",
    custom_properties: {},
  };
}

/** A label as webhook payloads carry it. */
export function githubLabel(name: string): Label {
  return { id: 77, node_id: "LA_77", url: `https://api.github.com/labels/${encodeURIComponent(name)}`, name, description: null, color: "0e8a16", default: false };
}

/** An issue as webhook payloads carry it. */
export function githubIssue(fullName: string, issue: { number: number; title: string; state: "open" | "closed"; stateReason?: string | null; labels?: Label[] }): Issue {
  const api = `https://api.github.com/repos/${fullName}/issues/${issue.number}`;
  return {
    url: api,
    repository_url: `https://api.github.com/repos/${fullName}`,
    labels_url: `${api}/labels{/name}`,
    comments_url: `${api}/comments`,
    events_url: `${api}/events`,
    html_url: `https://github.com/${fullName}/issues/${issue.number}`,
    id: 9000 + issue.number,
    node_id: `I_${issue.number}`,
    number: issue.number,
    title: issue.title,
    user: githubUser("octocat"),
    labels: issue.labels ?? [],
    state: issue.state,
    locked: false,
    assignee: null,
    assignees: [],
    milestone: null,
    comments: 0,
    created_at: AT,
    updated_at: AT,
    closed_at: issue.state === "closed" ? AT : null,
    author_association: "OWNER",
    active_lock_reason: null,
    body: "Issue text",
    reactions: { url: `${api}/reactions`, total_count: 0, "+1": 0, "-1": 0, laugh: 0, hooray: 0, confused: 0, heart: 0, rocket: 0, eyes: 0 },
    state_reason: issue.stateReason ?? null,
  };
}

/** `issues` / `closed`, as completed unless told. */
export function issuesClosedEvent(fullName: string, number: number, stateReason: "completed" | "not_planned" = "completed"): IssuesClosedEvent {
  const issue = githubIssue(fullName, { number, title: "Issue", state: "closed", stateReason });
  return { action: "closed", issue: { ...issue, state: "closed", closed_at: AT }, repository: githubRepository(fullName), sender: githubUser("octocat") };
}

/** `issues` / `reopened`. */
export function issuesReopenedEvent(fullName: string, number: number): IssuesReopenedEvent {
  const issue = githubIssue(fullName, { number, title: "Issue", state: "open", stateReason: "reopened" });
  return { action: "reopened", issue: { ...issue, state: "open", closed_at: null }, repository: githubRepository(fullName), sender: githubUser("octocat") };
}

/** `issues` / `labeled`. */
export function issuesLabeledEvent(fullName: string, number: number, label: string): IssuesLabeledEvent {
  const added = githubLabel(label);
  return { action: "labeled", issue: githubIssue(fullName, { number, title: "Issue", state: "open", labels: [added] }), label: added, repository: githubRepository(fullName), sender: githubUser("octocat") };
}

/**
 * The headers GitHub sends with a delivery: the event, a delivery id, and `X-Hub-Signature-256`
 * computed as GitHub documents it (HMAC-SHA256 of the raw body, hex, `sha256=` prefix).
 */
export function githubDeliveryHeaders(secret: string, event: string, body: string, deliveryId: string = randomUUID()): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": "GitHub-Hookshot/test",
    "x-github-event": event,
    "x-github-delivery": deliveryId,
    "x-hub-signature-256": `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`,
  };
}
