import type { FeatureRequestItem } from "@tidings/client";
import { useTidings, type ToggleVote } from "@tidings/react-core";
import { TagChips } from "./Tags.js";
import { VoteButton } from "./VoteButton.js";

/** One request in a list: vote, title, excerpt, badges and tags. */
export function FeatureRequestRow(props: { item: FeatureRequestItem; votes: ToggleVote; onOpen?: ((item: FeatureRequestItem) => void) | undefined }) {
  const { t } = useTidings();
  const { item } = props;
  return (
    <li className="td-card td-request">
      <VoteButton item={item} votes={props.votes} />
      <div className="td-request-body">
        {props.onOpen === undefined ? (
          <h3 className="td-request-title">{item.title}</h3>
        ) : (
          <h3 className="td-request-title">
            <button type="button" className="td-link" onClick={() => props.onOpen?.(item)}>
              {item.title}
            </button>
          </h3>
        )}
        {item.description ? <p className="td-muted td-excerpt">{item.description}</p> : null}
        <div className="td-badges">
          {!item.approved ? <span className="td-badge td-badge-pending">{t("requests.pending")}</span> : null}
          {item.columnName ? (
            <span className="td-badge" data-color={item.columnColor ?? undefined}>
              {item.columnName}
            </span>
          ) : null}
          {item.versionLabel ? <span className="td-badge">{item.versionLabel}</span> : null}
          <TagChips tags={item.tags} />
          {item.commentCount ? <span className="td-muted td-small">{t("requests.comments", { count: item.commentCount })}</span> : null}
        </div>
      </div>
    </li>
  );
}
