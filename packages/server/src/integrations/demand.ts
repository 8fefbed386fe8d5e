import { portalPath } from "@tidings/client";
import type { Kysely } from "kysely";
import type { Config } from "../config.js";
import type { Database } from "../db/schema.js";
import { publicBase } from "../mail/compose.js";
import type { Demand } from "./demand-block.js";

/** A request as an issue shows it: its text, and its demand. */
export interface RequestDemand extends Demand {
  title: string;
  description: string;
}

/**
 * A request's live demand: its vote and comment counts, its paying voters and their monthly
 * revenue per currency, and its portal page. Undefined when the request is gone.
 *
 * @example
 * ```ts
 * const demand = await requestDemand(db, ctx.config, "fr_…"); // { votes: 12, payingVoters: 2, revenue: [{ currency: "USD", cents: 9900 }], … }
 * ```
 */
export async function requestDemand(db: Kysely<Database>, config: Pick<Config, "publicUrl" | "port">, featureRequestId: string): Promise<RequestDemand | undefined> {
  const request = await db
    .selectFrom("featureRequests as fr")
    .innerJoin("apps as a", "a.id", "fr.appId")
    .select(["fr.id", "fr.title", "fr.description", "fr.voteCount", "fr.commentCount", "a.appKey"])
    .where("fr.id", "=", featureRequestId)
    .executeTakeFirst();
  if (request === undefined) return undefined;
  const paying = await db
    .selectFrom("featureRequestVotes as v")
    .innerJoin("endUsers as eu", "eu.id", "v.endUserId")
    .select(["eu.currency", (eb) => eb.fn.countAll<number>().as("voters"), (eb) => eb.fn.sum<number | null>("eu.mrrCents").as("cents")])
    .where("v.featureRequestId", "=", featureRequestId)
    .where("eu.isPaying", "=", 1)
    .groupBy("eu.currency")
    .execute();
  const revenue = new Map<string, number>();
  for (const row of paying) {
    const currency = (row.currency ?? "").toUpperCase();
    revenue.set(currency, (revenue.get(currency) ?? 0) + Number(row.cents ?? 0));
  }
  return {
    title: request.title,
    description: request.description,
    votes: Number(request.voteCount),
    comments: Number(request.commentCount),
    payingVoters: paying.reduce((n, row) => n + Number(row.voters), 0),
    revenue: [...revenue].map(([currency, cents]) => ({ currency, cents })).sort((a, b) => b.cents - a.cents || a.currency.localeCompare(b.currency)),
    url: `${publicBase(config)}${portalPath(request.appKey, { screen: "request", id: request.id }, request.title)}`,
  };
}
