import type { FeatureRequestItem } from "@tidings/client";
import { useTidings, type ToggleVote } from "@tidings/react-core";
import { Pressable, Text } from "react-native";
import { MIN_TOUCH, usePalette } from "../theme.js";

/**
 * The upvote toggle of a request with its count: optimistic, rolled back on failure, one tap in
 * flight at a time, and disabled on the caller's own requests (all in the shared `useToggleVote`).
 *
 * @example
 * ```tsx
 * <VoteButton item={item} votes={list.votes} />
 * ```
 */
export function VoteButton(props: { item: FeatureRequestItem; votes: ToggleVote }) {
  const { t } = useTidings();
  const palette = usePalette();
  const { item, votes } = props;
  const busy = votes.pending.has(item.id);
  const label = item.isOwnRequest ? t("vote.own") : t(item.hasVoted ? "vote.remove" : "vote.add", { title: item.title });
  const active = item.hasVoted;
  return (
    <Pressable
      accessibilityRole="button"
      accessibilityLabel={label}
      accessibilityState={{ selected: active, disabled: !votes.canVote(item) && !busy, busy }}
      disabled={!votes.canVote(item) && !busy}
      onPress={() => void votes.toggle(item)}
      hitSlop={4}
      style={{
        minWidth: 52,
        minHeight: MIN_TOUCH + 8,
        alignItems: "center",
        justifyContent: "center",
        borderRadius: 10,
        borderWidth: 1,
        borderColor: active ? palette.voteActiveBg : palette.border,
        backgroundColor: active ? palette.voteActiveBg : palette.voteBg,
        opacity: item.isOwnRequest ? 0.6 : 1,
      }}
    >
      <Text importantForAccessibility="no" style={{ color: active ? palette.voteActiveText : palette.voteText, fontSize: 12 }}>▲</Text>
      <Text style={{ color: active ? palette.voteActiveText : palette.voteText, fontWeight: "700", fontSize: 16 }}>{item.voteCount}</Text>
    </Pressable>
  );
}
