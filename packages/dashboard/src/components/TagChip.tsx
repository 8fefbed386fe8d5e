import type { ReactNode } from "react";
import { t } from "../i18n/t.js";

/** A tag as a chip: its colour, its name, a mark on team-only tags (the public never sees them); `children` follow (a remove button). */
export function TagChip(props: { tag: { name: string; color: string | null; visibility?: string }; children?: ReactNode }) {
  return (
    <span className="chip" data-testid="tag-chip">
      <span className="swatch" style={{ background: props.tag.color ?? "#94a3b8" }} aria-hidden="true" />
      {props.tag.name}
      {props.tag.visibility === "team" ? <small> · {t("tags.teamMark")}</small> : null}
      {props.children}
    </span>
  );
}
