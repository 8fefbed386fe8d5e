import type { FeatureRequestItem, PortalRoute, PublicTag } from "@tidings/client";
import { useTidings } from "@tidings/react-core";
import { useEffect, useState, type MouseEvent, type ReactNode } from "react";
import { TidingsScreen } from "../components/TidingsScreen.js";
import type { ListFilters } from "./portal-address.js";
import { filterStrings } from "./portal-strings.js";

/** A public board as the server lists it in the page (`data-boards`). */
export interface PortalBoard {
  id: string;
  slug: string;
  name: string;
}

/** The most tags a listing filters on at once (the server's `MAX_TAG_FILTERS`). */
const MAX_TAG_FILTERS = 5;

/** Props of {@link PortalFilters}. */
export interface PortalFiltersProps {
  /** The public boards, when there are several (else empty). */
  boards: readonly PortalBoard[];
  /** The public tags. */
  tags: readonly PublicTag[];
  route: PortalRoute;
  filters: ListFilters;
  /** The address of the list with these filters, for the links. */
  hrefOf: (filters: ListFilters) => string;
  /** Shows the list with these filters. */
  onFilter: (filters: ListFilters) => void;
}

/** A tag's colour, as a dot before its name. */
function Dot(props: { color: string | null }) {
  return props.color === null ? null : (
    <svg className="td-tag-dot" width="8" height="8" viewBox="0 0 8 8" aria-hidden="true">
      <circle cx="4" cy="4" r="4" fill={props.color} />
    </svg>
  );
}

/**
 * The portal's boards and tags: on the requests list, a link per public board and a tag picker
 * with the tags chosen (each removable); on a request, its board and its public tags, each
 * linking to its list. Links are real addresses, so they open in a new tab as well.
 *
 * @example
 * ```tsx
 * <PortalFilters boards={boards} tags={tags} route={route} filters={filters} hrefOf={href} onFilter={show} />
 * ```
 */
export function PortalFilters(props: PortalFiltersProps) {
  const { t, locale, client, userToken, isEnabled } = useTidings();
  const words = filterStrings(locale);
  const { route, filters, boards, tags } = props;
  // The list shows at its own address, and at home when it is the first section.
  const onList = route.screen === "requests" || (route.screen === "home" && !isEnabled("roadmap") && isEnabled("featureRequests"));
  const requestId = route.screen === "request" ? route.id : null;
  const [item, setItem] = useState<FeatureRequestItem | null>(null);

  useEffect(() => {
    setItem(null);
    if (requestId === null || (boards.length === 0 && tags.length === 0)) return;
    const controller = new AbortController();
    client.getFeatureRequest(requestId, { signal: controller.signal, userToken: userToken ?? undefined }).then(setItem, () => undefined);
    return () => controller.abort();
  }, [client, requestId, userToken, boards.length, tags.length]);

  const link = (to: ListFilters, children: ReactNode, options: { current?: boolean; className?: string } = {}) => {
    const follow = (event: MouseEvent) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      props.onFilter(to);
    };
    return (
      <a key={`${to.board ?? ""}|${to.tags.join(",")}`} href={props.hrefOf(to)} className={options.className} aria-current={options.current ? "page" : undefined} onClick={follow}>
        {children}
      </a>
    );
  };

  let content: ReactNode[] = [];
  if (onList) {
    const chosen = filters.tags.map((slug) => tags.find((tag) => tag.slug === slug) ?? { slug, name: slug, color: null });
    const more = tags.filter((tag) => !filters.tags.includes(tag.slug));
    content = [
      boards.length > 1 ? (
        <div key="boards" className="td-board-links">
          {link({ board: undefined, tags: filters.tags }, words.allBoards, { current: filters.board === undefined })}
          {boards.map((board) => link({ board: board.slug, tags: filters.tags }, board.name, { current: filters.board === board.slug }))}
        </div>
      ) : null,
      tags.length > 0 ? (
        <div key="tags" className="td-tag-filter">
          <label className="td-picker">
            <span className="td-visually-hidden">{words.filterByTag}</span>
            <select
              className="td-input"
              value=""
              disabled={filters.tags.length >= MAX_TAG_FILTERS || more.length === 0}
              onChange={(event) => props.onFilter({ board: filters.board, tags: [...filters.tags, event.target.value] })}
            >
              <option value="">{words.filterByTag}</option>
              {more.map((tag) => (
                <option key={tag.slug} value={tag.slug}>
                  {tag.name}
                </option>
              ))}
            </select>
          </label>
          {chosen.map((tag) => (
            <button
              key={tag.slug}
              type="button"
              className="td-filter-tag"
              aria-label={t("feedback.remove", { name: tag.name })}
              onClick={() => props.onFilter({ board: filters.board, tags: filters.tags.filter((slug) => slug !== tag.slug) })}
            >
              <Dot color={tag.color} />
              {tag.name} <span aria-hidden="true">×</span>
            </button>
          ))}
        </div>
      ) : null,
    ];
  } else if (item !== null && item.id === requestId) {
    const board = boards.find((b) => b.id === item.boardId);
    content = [
      board === undefined ? null : <div key="boards" className="td-board-links">{link({ board: board.slug, tags: [] }, board.name)}</div>,
      (item.tags ?? []).length === 0 ? null : (
        <div key="tags" className="td-tag-filter">
          {(item.tags ?? []).map((tag) =>
            link(
              { board: undefined, tags: [tag.slug] },
              <>
                <Dot color={tag.color} />
                {tag.name}
              </>,
              { className: "td-filter-tag" },
            ),
          )}
        </div>
      ),
    ];
  }
  content = content.filter((part) => part !== null);
  if (content.length === 0) return null;
  return (
    <TidingsScreen label={words.boardsAndTags} className="td-portal-filters">
      {content}
    </TidingsScreen>
  );
}

/**
 * The list of a board the page does not name (the server does not tell a private board from an
 * unknown one): "not found" in the visitor's language, while `looking` nothing.
 */
export function BoardNotFound(props: { looking: boolean }) {
  const { locale } = useTidings();
  return props.looking ? null : (
    <main className="td-portal-main">
      <p role="status">{filterStrings(locale).boardNotFound}</p>
    </main>
  );
}
