import type { AdminChangelogEntry } from "@tidings/protocol";

/** The release being written in the editor. */
export interface Draft {
  id: string | null;
  title: string;
  versionLabel: string;
  body: string;
  /** Feature requests this release delivers. */
  linkedRequestIds: string[];
  /** When to publish, as a `datetime-local` value (local time); empty for no schedule. */
  scheduledAt: string;
  /** The segment whose subscribers alone are mailed the release; empty for every subscriber. */
  emailSegmentId: string;
}

/** The editor with nothing in it. */
export const EMPTY: Draft = { id: null, title: "", versionLabel: "", body: "", linkedRequestIds: [], scheduledAt: "", emailSegmentId: "" };

/** An ISO time as a `datetime-local` value in the browser's time zone ("" for none). */
export function toLocalInput(iso: string | null): string {
  if (iso === null) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value (local time) as an ISO time; null when empty or unreadable. */
export function fromLocalInput(value: string): string | null {
  if (value.trim() === "") return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** A saved entry back in the editor. */
export const editable = (entry: AdminChangelogEntry): Draft => ({
  id: entry.id,
  title: entry.title,
  versionLabel: entry.versionLabel ?? "",
  body: entry.body,
  linkedRequestIds: [...entry.linkedRequestIds],
  scheduledAt: toLocalInput(entry.scheduledAt),
  emailSegmentId: entry.emailSegmentId ?? "",
});
// The unsaved draft survives a lost session (the signed-in shell unmounts) in this tab's session storage.
export const draftKey = (appId: string) => `tidings.dashboard.changelog-draft.${appId}`;

/** The draft this tab kept for the app, else an empty one. */
export function storedDraft(appId: string): Draft {
  try {
    const raw = window.sessionStorage.getItem(draftKey(appId));
    return raw === null ? EMPTY : { ...EMPTY, ...(JSON.parse(raw) as Partial<Draft>) };
  } catch {
    return EMPTY;
  }
}
