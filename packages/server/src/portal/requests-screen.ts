import escapeHtml from "escape-html";
import { listAddress } from "./addresses.js";
import { signInPage, type PortalScreen, type ScreenInput } from "./portal-screen.js";
import { boardNav, requestList, tagChip } from "./request-html.js";
import { count, paragraphs, summary } from "./screen-text.js";

/** The requests list, of every public board or of one, filtered by tags. */
export async function requestsScreen({ app, org, filters, key, roadmapOpen, list, tagHref }: ScreenInput): Promise<PortalScreen> {
  const { board, tags } = filters;
  const path = listAddress(key, { board: board?.slug, tags: [] });
  if (!roadmapOpen) return signInPage(app, path, "requests");
  const page = await list("top");
  const heading = board?.name ?? "Feature requests";
  const tagged = tags.length === 0 ? "" : ` tagged ${tags.map((t) => t.name).join(", ")}`;
  const filterLine =
    tags.length === 0
      ? ""
      : `<p class="td-filter">Tagged ${tags.map((t) => tagChip(t, undefined)).join(" ")} · <a href="${escapeHtml(path)}">Show all</a></p>`;
  const body = [
    `<h2>${escapeHtml(heading)}</h2>`,
    board === undefined || board.description === "" ? "" : paragraphs(board.description),
    boardNav(key, org, board),
    filterLine,
    requestList(key, page.requests, tags.length === 0 ? "No requests yet." : "No requests with these tags.", tagHref),
  ];
  const counted = count(page.total, "request", "requests");
  return {
    kind: "page",
    title: `${heading}${tagged} · ${app.name}`,
    description:
      board === undefined
        ? `Vote on ${app.name}'s feature requests or suggest your own (${counted}).`
        : summary(board.description) || `${board.name} on ${app.name}: vote on requests or suggest your own (${counted}).`,
    path,
    ogType: "website",
    body: body.filter((part) => part !== "").join("\n"),
    board,
  };
}
