/** What a webhook job carries: the parts of an `issues` delivery Tidings acts on. */
export interface GithubWebhookJobPayload {
  connectionId: string;
  deliveryId: string;
  action: "closed" | "reopened" | "labeled";
  issueNumber: number;
  /** `completed`, `not_planned`, `duplicate`, `reopened` or null (closed events of older servers). */
  stateReason: string | null;
  issueState: string;
  /** The label added (`labeled`). */
  label: string | null;
}

const ACTIONS = new Set(["closed", "reopened", "labeled"]);

/** The parts of an `issues` delivery a job needs, or undefined for anything Tidings does not act on. */
export function githubJobPayload(connection: { id: string; owner: string; repo: string }, event: string, deliveryId: string, payload: unknown): GithubWebhookJobPayload | undefined {
  if (event !== "issues" || typeof payload !== "object" || payload === null) return undefined;
  const { action, issue, repository, label } = payload as { action?: unknown; issue?: Record<string, unknown>; repository?: { full_name?: unknown }; label?: { name?: unknown } };
  if (typeof action !== "string" || !ACTIONS.has(action) || typeof issue !== "object" || issue === null) return undefined;
  // Another repository's issue with the same number is not ours (a webhook set on an organisation).
  if (typeof repository?.full_name !== "string" || repository.full_name.toLowerCase() !== `${connection.owner}/${connection.repo}`.toLowerCase()) return undefined;
  if (typeof issue.number !== "number" || !Number.isSafeInteger(issue.number) || issue.pull_request !== undefined) return undefined;
  return {
    connectionId: connection.id,
    deliveryId,
    action: action as GithubWebhookJobPayload["action"],
    issueNumber: issue.number,
    stateReason: typeof issue.state_reason === "string" ? issue.state_reason : null,
    issueState: typeof issue.state === "string" ? issue.state : action === "closed" ? "closed" : "open",
    label: typeof label?.name === "string" ? label.name : null,
  };
}

/**
 * Why an `installation` or `installation_repositories` delivery ends a GitHub App connection:
 * its installation was deleted or suspended, or its repository was taken out of it. Undefined
 * for anything else (another installation, another repository, a token connection).
 */
export function installationBreak(connection: { installationId: string | null; owner: string; repo: string }, event: string, payload: unknown): string | undefined {
  if (connection.installationId === null || typeof payload !== "object" || payload === null) return undefined;
  const { action, installation, repositories_removed: removed } = payload as { action?: unknown; installation?: { id?: unknown }; repositories_removed?: unknown };
  if (String(installation?.id) !== connection.installationId) return undefined;
  if (event === "installation" && action === "deleted") return "installation_removed";
  if (event === "installation" && action === "suspend") return "installation_suspended";
  if (event !== "installation_repositories" || action !== "removed" || !Array.isArray(removed)) return undefined;
  const full = `${connection.owner}/${connection.repo}`.toLowerCase();
  return removed.some((r: { full_name?: unknown }) => typeof r.full_name === "string" && r.full_name.toLowerCase() === full) ? "repository_removed" : undefined;
}
