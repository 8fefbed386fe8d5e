import type { Segment } from "@tidings/protocol";
import { api } from "../api.js";
import type { Choice } from "./Select.js";
import { useLoad } from "./ui.js";

/**
 * An app's segments as select choices, led by `none` (the empty value: no segment), for the
 * places that pick one (a board's access rule, a release's mail, list filters).
 */
export function useSegmentChoices(wsId: string, appId: string, none: string): { choices: Choice[]; segments: Segment[] } {
  const list = useLoad(() => api<{ segments: Segment[] }>("GET", `/workspaces/${wsId}/apps/${appId}/segments`), [wsId, appId]);
  const segments = list.data?.segments ?? [];
  return { segments, choices: [{ value: "", label: none }, ...segments.map((s) => ({ value: s.id, label: s.name }))] };
}
