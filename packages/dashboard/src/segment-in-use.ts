import type { Board } from "@tidings/protocol";
import { api } from "./api.js";
import { t } from "./i18n/t.js";

/** What a refused delete names: the boards and releases that still use the segment. */
export function segmentUses(details: unknown): { boards: string[]; releases: string[] } {
  const d = (typeof details === "object" && details !== null ? details : {}) as { boards?: unknown; releases?: unknown };
  const ids = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);
  return { boards: ids(d.boards), releases: ids(d.releases) };
}

/** The 409 of a delete as a sentence naming the boards and releases that still use the segment. */
export async function inUseMessage(wsId: string, appId: string, details: unknown): Promise<string> {
  const uses = segmentUses(details);
  const [boards, releases] = await Promise.all([
    api<{ boards: Board[] }>("GET", `/workspaces/${wsId}/apps/${appId}/boards`).catch(() => ({ boards: [] })),
    api<{ entries: Array<{ id: string; title: string }> }>("GET", `/workspaces/${wsId}/changelog?appId=${appId}&limit=100&offset=0`).catch(() => ({ entries: [] })),
  ]);
  const name = (list: ReadonlyArray<{ id: string }>, label: (item: never) => string) => (id: string) => {
    const found = list.find((item) => item.id === id);
    return found === undefined ? id : `“${label(found as never)}”`;
  };
  const parts: string[] = [];
  if (uses.boards.length > 0) parts.push(t("segments.inUseBoards", { names: uses.boards.map(name(boards.boards, (b: Board) => b.name)).join(", ") }));
  if (uses.releases.length > 0) parts.push(t("segments.inUseReleases", { names: uses.releases.map(name(releases.entries, (r: { title: string }) => r.title)).join(", ") }));
  return t("segments.inUse", { uses: parts.join("; ") });
}
