import type { FeatureRequestItem } from "@tidings/client";
import { useId, useState, type KeyboardEvent } from "react";
import { useTidings, useRoadmap } from "@tidings/react-core";
import { FeatureRequestRow } from "./FeatureRequestRow.js";
import { ErrorState, Loading, Unavailable } from "./States.js";
import { TidingsScreen } from "./TidingsScreen.js";

/** Props of {@link RoadmapBoard}. */
export interface RoadmapBoardProps {
  /** The slug of the column shown (e.g. from the address); without it the first column, then the one picked. */
  column?: string | undefined;
  /** Called with a column's slug when the user picks its tab. */
  onColumnChange?: ((slug: string) => void) | undefined;
  /** Makes request titles open the request. */
  onOpenRequest?: ((item: FeatureRequestItem) => void) | undefined;
}

/**
 * The roadmap: a tab per visible column, in position order, plus the automatic Other tab for
 * requests of hidden or deleted columns (rule 7). Wide screens show the tabs side by side as a
 * board. With the `roadmap` flag off it shows the unavailable state and fetches nothing.
 *
 * @example
 * ```tsx
 * <RoadmapBoard />
 * ```
 */
export function RoadmapBoard(props: RoadmapBoardProps = {}) {
  const { t } = useTidings();
  const roadmap = useRoadmap();
  const [own, setOwn] = useState<string | null>(null);
  const base = useId();

  if (!roadmap.enabled) {
    return (
      <TidingsScreen label={t("roadmap.title")}>
        <Unavailable />
      </TidingsScreen>
    );
  }
  if (roadmap.status === "error") {
    return (
      <TidingsScreen label={t("roadmap.title")}>
        <ErrorState message={roadmap.error ?? ""} onRetry={roadmap.reload} />
      </TidingsScreen>
    );
  }
  if (roadmap.status !== "ready" && roadmap.groups.length === 0) {
    return (
      <TidingsScreen label={t("roadmap.title")}>
        <Loading />
      </TidingsScreen>
    );
  }
  const groups = roadmap.groups;
  // Controlled by a column slug (a portal address), else by the tab last picked.
  const selected = props.column === undefined ? own : (groups.find((g) => g.column?.slug === props.column)?.id ?? null);
  const setSelected = (id: string) => {
    setOwn(id);
    const slug = groups.find((g) => g.id === id)?.column?.slug;
    if (slug !== undefined) props.onColumnChange?.(slug);
  };
  const active = groups.find((g) => g.id === selected) ?? groups[0];
  const onKey = (event: KeyboardEvent, index: number) => {
    const delta = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (delta === 0) return;
    event.preventDefault();
    const next = groups[(index + delta + groups.length) % groups.length];
    if (next === undefined) return;
    setSelected(next.id);
    document.getElementById(`${base}-tab-${next.id}`)?.focus();
  };
  return (
    <TidingsScreen label={t("roadmap.title")} className="td-roadmap">
      <div role="tablist" aria-label={t("roadmap.title")} className="td-tabs">
        {groups.map((group, index) => {
          const isActive = group.id === active?.id;
          return (
            <button
              key={group.id}
              id={`${base}-tab-${group.id}`}
              role="tab"
              type="button"
              aria-selected={isActive}
              aria-controls={`${base}-panel-${group.id}`}
              tabIndex={isActive ? 0 : -1}
              className="td-tab"
              onClick={() => setSelected(group.id)}
              onKeyDown={(e) => onKey(e, index)}
            >
              {group.column?.color ? <span className="td-dot" data-color={group.column.color} aria-hidden="true" /> : null}
              {group.column?.name ?? t("roadmap.other")}
              <span className="td-tab-count">{group.requests.length}</span>
            </button>
          );
        })}
      </div>
      {active === undefined ? null : (
        <div role="tabpanel" id={`${base}-panel-${active.id}`} aria-labelledby={`${base}-tab-${active.id}`} className="td-tabpanel">
          {active.requests.length === 0 ? (
            <p className="td-muted td-state">{t("roadmap.empty")}</p>
          ) : (
            <ul className="td-list">
              {active.requests.map((item) => (
                <FeatureRequestRow key={item.id} item={item} votes={roadmap.votes} onOpen={props.onOpenRequest} />
              ))}
            </ul>
          )}
        </div>
      )}
    </TidingsScreen>
  );
}
