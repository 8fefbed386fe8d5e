/** The markers around the block Tidings keeps in an issue's body; everything outside them is the team's. */
export const DEMAND_START = "<!-- tidings:demand:start -->";
export const DEMAND_END = "<!-- tidings:demand:end -->";

/** A request's demand as the block shows it. */
export interface Demand {
  votes: number;
  comments: number;
  payingVoters: number;
  /** Paying voters' monthly revenue by currency (ISO code, or "" when the host sent none), in cents. */
  revenue: ReadonlyArray<{ currency: string; cents: number }>;
  /** The request's page in the portal. */
  url: string;
}

function amount(cents: number, currency: string): string {
  const value = cents / 100;
  if (/^[A-Z]{3}$/.test(currency)) {
    try {
      return new Intl.NumberFormat("en", { style: "currency", currency, currencyDisplay: "code" }).format(value).replace(/\u00a0/g, " ");
    } catch {
      // An unknown code falls through to the plain form.
    }
  }
  const plain = new Intl.NumberFormat("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
  return currency === "" ? plain : `${plain} ${currency}`;
}

const count = (n: number, one: string, many: string) => `${new Intl.NumberFormat("en").format(n)} ${new Intl.PluralRules("en").select(n) === "one" ? one : many}`;

/**
 * The block's Markdown, markers included: votes, comments, paying voters with their monthly
 * revenue per currency, and a link to the request.
 *
 * @example
 * ```ts
 * renderDemandBlock({ votes: 12, comments: 3, payingVoters: 2, revenue: [{ currency: "USD", cents: 9900 }], url });
 * ```
 */
export function renderDemandBlock(demand: Demand): string {
  const revenue = demand.revenue.filter((r) => r.cents > 0).map((r) => amount(r.cents, r.currency));
  return [
    DEMAND_START,
    "#### Demand on Tidings",
    "",
    "| Votes | Comments | Paying voters | Their monthly revenue |",
    "| ---: | ---: | ---: | :--- |",
    `| ${demand.votes} | ${demand.comments} | ${demand.payingVoters} | ${revenue.length === 0 ? "—" : revenue.join(" · ")} |`,
    "",
    `[${count(demand.votes, "vote", "votes")} on the request's page](${demand.url}) · kept up to date by Tidings, edits inside this block are overwritten`,
    DEMAND_END,
  ].join("\n");
}

/**
 * `body` with `block` in place of the marked block it holds, or appended after a blank line when
 * it holds none. Nothing outside the markers changes. A start marker without an end after it is
 * left alone (the team's text) and the block is appended.
 *
 * @example
 * ```ts
 * withDemandBlock("Steps to reproduce…", block); // "Steps to reproduce…\n\n<!-- tidings:demand:start -->…"
 * ```
 */
export function withDemandBlock(body: string, block: string): string {
  const start = body.indexOf(DEMAND_START);
  const end = start === -1 ? -1 : body.indexOf(DEMAND_END, start + DEMAND_START.length);
  if (start !== -1 && end !== -1) return body.slice(0, start) + block + body.slice(end + DEMAND_END.length);
  if (body.trim() === "") return block;
  return `${body.replace(/\s+$/, "")}\n\n${block}`;
}

/** `body` without its marked block (and the blank line before it); unchanged when it has none. */
export function withoutDemandBlock(body: string): string {
  const start = body.indexOf(DEMAND_START);
  const end = start === -1 ? -1 : body.indexOf(DEMAND_END, start + DEMAND_START.length);
  if (start === -1 || end === -1) return body;
  const before = body.slice(0, start);
  const after = body.slice(end + DEMAND_END.length);
  return after.trim() === "" ? before.replace(/\s+$/, "") : before + after.replace(/^\n/, "");
}
