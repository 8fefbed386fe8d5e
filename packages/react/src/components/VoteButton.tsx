import type { FeatureRequestItem } from "@tidings/client";
import { useTidings, type ToggleVote } from "@tidings/react-core";

/** The upvote toggle of a request, with its count. */
export function VoteButton(props: { item: FeatureRequestItem; votes: ToggleVote }) {
  const { t } = useTidings();
  const { item, votes } = props;
  const busy = votes.pending.has(item.id);
  const label = item.isOwnRequest ? t("vote.own") : t(item.hasVoted ? "vote.remove" : "vote.add", { title: item.title });
  return (
    <button
      type="button"
      className={`td-vote${item.hasVoted ? " td-vote-active" : ""}`}
      aria-pressed={item.hasVoted}
      aria-label={label}
      title={label}
      disabled={!votes.canVote(item) && !busy}
      aria-busy={busy}
      onClick={() => void votes.toggle(item)}
    >
      <span aria-hidden="true" className="td-vote-arrow">▲</span>
      <span className="td-vote-count">{item.voteCount}</span>
    </button>
  );
}
