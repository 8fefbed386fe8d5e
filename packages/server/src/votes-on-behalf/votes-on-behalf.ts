import type { Kysely } from "kysely";
import { boardAdmitsEndUser } from "../boards/access-rules.js";
import { findBoardOfApp } from "../boards/boards.js";
import { findCompanyInWorkspace } from "../companies/companies.js";
import type { Context } from "../context.js";
import type { Database } from "../db/schema.js";
import { ApiError } from "../http/errors.js";
import { normaliseEmail } from "../mail/email-address.js";
import { followForCustomer, type TeamFollow } from "./customer-follows.js";
import { findRequestInWorkspace } from "../feature-requests/triage.js";
import { addVoteFor } from "../feature-requests/votes-for.js";

/** Who the team votes for: one end user by public id or SSO email, or a company. */
export type OnBehalfOf = { endUserId: string } | { email: string } | { companyId: string };

interface Customer {
  id: string;
  publicId: string;
  email: string | null;
  tokenHash: string;
}

function notFound(field: string, value: string): ApiError {
  return new ApiError("end_user_not_found", { message: `No end user of this app has ${field} ${value}`, details: { [field]: value } });
}

/**
 * The end user a vote on behalf is for, in the request's app. A company votes through one of its
 * users, as Canny's "vote on behalf" does (a vote is always a person's): the user of the company
 * who already voted for the request if there is one (so the vote is idempotent per company), else
 * its first user (the earliest known). 404 `end_user_not_found` naming the id or email given,
 * 404 `company_not_found`, 409 `company_has_no_users`.
 */
async function customerOf(db: Kysely<Database>, workspaceId: string, request: { id: string; appId: string }, of: OnBehalfOf): Promise<Customer> {
  const users = db.selectFrom("endUsers").select(["id", "publicId", "email", "tokenHash"]).where("appId", "=", request.appId);
  if ("endUserId" in of) {
    return (await users.where("publicId", "=", of.endUserId).executeTakeFirst()) ?? Promise.reject(notFound("endUserId", of.endUserId));
  }
  if ("email" in of) {
    const email = normaliseEmail(of.email)?.toLowerCase();
    if (email === undefined) throw new ApiError("validation_failed", { details: { formErrors: [], fieldErrors: { email: ["Must be a valid email address"] } } });
    return (await users.where("email", "=", email).orderBy("createdAt").orderBy("id").executeTakeFirst()) ?? Promise.reject(notFound("email", of.email));
  }
  const company = await findCompanyInWorkspace(db, workspaceId, of.companyId);
  if (company.appId !== request.appId) throw new ApiError("company_not_found");
  const ofCompany = users.where("companyId", "=", company.id);
  const voter = await ofCompany
    .where((eb) => eb.exists(eb.selectFrom("featureRequestVotes as v").select("v.endUserId").whereRef("v.endUserId", "=", "endUsers.id").where("v.featureRequestId", "=", request.id)))
    .orderBy("createdAt")
    .orderBy("id")
    .executeTakeFirst();
  const first = voter ?? (await ofCompany.orderBy("createdAt").orderBy("id").executeTakeFirst());
  if (first === undefined) throw new ApiError("company_has_no_users");
  return first;
}

/**
 * The team votes for a customer: the vote counts like any (added in a transaction shared with
 * the request's other votes), is marked as added by `addedBy` with `note`, and is idempotent (a
 * customer who voted keeps their vote as it was). The customer then follows the request by the
 * consent rules of {@link followForCustomer}. Nothing is written when the customer or the request
 * is not found, or when the request's board is private and its rule does not admit the customer
 * (409 `customer_not_admitted`: they would follow a request they cannot open).
 *
 * @example
 * ```ts
 * await voteOnBehalf(ctx, wsId, "fr_…", { email: "ada@acme.example" }, { addedBy: "usr_…", note: "Asked on the sales call" });
 * ```
 */
export async function voteOnBehalf(
  ctx: Context,
  workspaceId: string,
  featureRequestId: string,
  of: OnBehalfOf,
  by: { addedBy: string | null; note: string | null },
): Promise<{ appId: string; voterPublicId: string; added: boolean; voteCount: number; follow: TeamFollow }> {
  const db = ctx.db.kysely;
  const request = await findRequestInWorkspace(db, workspaceId, featureRequestId);
  if (request.moderation !== "approved" || request.mergedIntoId !== null) throw new ApiError("feature_request_not_found");
  const customer = await customerOf(db, workspaceId, request, of);
  const board = await findBoardOfApp(db, request.appId, request.boardId);
  if (!(await boardAdmitsEndUser(db, request.appId, board, customer.id))) {
    throw new ApiError("customer_not_admitted", { details: { endUserId: customer.publicId, boardId: board.id } });
  }
  const app = await db.selectFrom("apps").select(["id", "appKey", "name"]).where("id", "=", request.appId).executeTakeFirstOrThrow();
  const typed = await db
    .selectFrom("submissions")
    .select("reporterEmail")
    .where("endUserId", "=", customer.id)
    .where("reporterEmail", "is not", null)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .executeTakeFirst();
  const typedEmail = typed?.reporterEmail === undefined || typed.reporterEmail === null ? null : (normaliseEmail(typed.reporterEmail) ?? null);
  const result = await ctx.db.sharedTransaction(async (trx) => {
    const vote = await addVoteFor(trx, ctx.clock, ctx.db.dialect, { featureRequestId, appId: request.appId, endUserId: customer.id, addedBy: by.addedBy, note: by.note });
    const follow = await followForCustomer(trx, ctx, app, { featureRequestId, requestTitle: request.title, vouchedEmail: customer.email, typedEmail, tokenHash: customer.tokenHash });
    return { ...vote, follow };
  }, featureRequestId);
  return { appId: request.appId, voterPublicId: customer.publicId, ...result };
}
