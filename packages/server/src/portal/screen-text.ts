import escapeHtml from "escape-html";

const DESCRIPTION_CHARS = 200;

const plural = new Intl.PluralRules("en");

/** English counts for the server-rendered text (the app renders in the visitor's language). */
export function count(n: number, one: string, other: string): string {
  return `${n} ${plural.select(n) === "one" ? one : other}`;
}

/** One line of at most {@link DESCRIPTION_CHARS} characters, cut at a word, for meta descriptions. */
export function summary(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= DESCRIPTION_CHARS) return line;
  const cut = line.slice(0, DESCRIPTION_CHARS - 1);
  return `${cut.slice(0, cut.lastIndexOf(" ") > 80 ? cut.lastIndexOf(" ") : cut.length)}…`;
}

/** Text of sanitised HTML (release notes), for descriptions. */
export function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, " ")
    .replace(/&(lt|gt|quot|#39|amp);/g, (_m, e: string) => ({ lt: "<", gt: ">", quot: '"', "#39": "'", amp: "&" })[e] ?? "");
}

/** Paragraphs of plain text (blank-line separated), escaped. */
export function paragraphs(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .join("\n");
}
