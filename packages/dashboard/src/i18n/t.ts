import { en, type MessageId } from "./en.js";

const plurals = new Intl.PluralRules("en");

/**
 * The English string of `id` with `{name}` placeholders filled; plural entries pick their form
 * with the locale's rules from `vars.count`.
 *
 * @example
 * ```ts
 * t("requests.votes", { count: 3 }); // "3 votes"
 * ```
 */
export function t(id: MessageId, vars: Record<string, string | number> = {}): string {
  const entry: string | Readonly<Record<string, string>> = en[id];
  let text: string;
  if (typeof entry === "string") text = entry;
  else {
    const category = plurals.select(Number(vars.count ?? 0));
    text = entry[category] ?? entry.other ?? id;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (vars[name] === undefined ? whole : String(vars[name])));
}
