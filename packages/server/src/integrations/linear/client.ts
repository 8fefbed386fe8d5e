import { LINEAR_API_URL } from "@tidings/protocol";
import { checkWebhookUrl } from "../../webhooks/address-guard.js";
import type { Context } from "../../context.js";
import { NotOfTeamError } from "./failures.js";
import { linearSdk } from "./sdk.js";

/** How long Linear has to answer one call. */
export const LINEAR_TIMEOUT_MS = 10_000;

/** What a connection needs to call Linear. */
export interface LinearTarget {
  teamId: string;
  apiKey: string;
  apiUrl: string;
}

/** An issue as Tidings reads it. */
export interface LinearIssue {
  id: string;
  identifier: string;
  title: string;
  description: string;
  url: string;
  teamId: string | undefined;
}

/** The calls Tidings makes to Linear for one connection. */
export interface LinearApi {
  getIssue(idOrIdentifier: string): Promise<LinearIssue>;
  createIssue(input: { title: string; description: string }): Promise<LinearIssue>;
  setDescription(issueId: string, description: string): Promise<void>;
}

/**
 * A client for one connection, through `@linear/sdk`. The endpoint is checked against the
 * address guard before each call (a non-default endpoint must be an allowed address), and each
 * call has {@link LINEAR_TIMEOUT_MS} to answer.
 *
 * @example
 * ```ts
 * const issue = await linearClient(ctx, connection).getIssue("ENG-123");
 * ```
 */
export function linearClient(ctx: Pick<Context, "config">, target: LinearTarget): LinearApi {
  // A client per call: its fetch options, and so its timeout signal, are fixed when it is made.
  const sdk = async () => {
    const { LinearClient } = await linearSdk();
    return new LinearClient({ apiKey: target.apiKey, apiUrl: target.apiUrl, signal: AbortSignal.timeout(LINEAR_TIMEOUT_MS) });
  };
  const guard = async () => {
    if (target.apiUrl !== LINEAR_API_URL) await checkWebhookUrl(target.apiUrl, ctx.config.webhookAllow);
  };
  const read = async (idOrIdentifier: string): Promise<LinearIssue> => {
    const issue = await (await sdk()).issue(idOrIdentifier);
    const teamId = issue.teamId;
    if (teamId !== undefined && teamId !== target.teamId) throw new NotOfTeamError(issue.identifier);
    return { id: issue.id, identifier: issue.identifier, title: issue.title, description: issue.description ?? "", url: issue.url, teamId };
  };
  return {
    async getIssue(idOrIdentifier) {
      await guard();
      return read(idOrIdentifier);
    },
    async createIssue(input) {
      await guard();
      const payload = await (await sdk()).createIssue({ teamId: target.teamId, title: input.title, description: input.description });
      const id = payload.issueId;
      if (!payload.success || id === undefined) {
        const { LinearError, LinearErrorType } = await linearSdk();
        throw new LinearError(undefined, [], LinearErrorType.Unknown);
      }
      return read(id);
    },
    async setDescription(issueId, description) {
      await guard();
      await (await sdk()).updateIssue(issueId, { description });
    },
  };
}
