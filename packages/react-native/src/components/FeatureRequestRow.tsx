import type { FeatureRequestItem } from "@tidings/client";
import { useTidings, type ToggleVote } from "@tidings/react-core";
import { Pressable, Text, View } from "react-native";
import { MIN_TOUCH, usePalette } from "../theme.js";
import { Badge } from "./Badge.js";
import { VoteButton } from "./VoteButton.js";

/** One request: its vote button, then a tappable body with title, excerpt, badges and tags. */
export function FeatureRequestRow(props: { item: FeatureRequestItem; votes: ToggleVote; onOpen: (item: FeatureRequestItem) => void }) {
  const { t } = useTidings();
  const palette = usePalette();
  const { item } = props;
  const comments = item.commentCount ? t("requests.comments", { count: item.commentCount }) : undefined;
  const pending = item.approved ? undefined : t("requests.pending");
  // Read as one control; the parts a sighted user sees are all in its label.
  const tags = item.tags ?? [];
  const label = [item.title, pending, item.columnName, item.versionLabel, ...tags.map((tag) => tag.name), comments].filter(Boolean).join(", ");
  return (
    <View style={{ flexDirection: "row", gap: 12, padding: 12, marginHorizontal: 12, marginBottom: 10, borderRadius: 12, borderWidth: 1, borderColor: palette.cardBorder, backgroundColor: palette.card }}>
      <VoteButton item={item} votes={props.votes} />
      <Pressable accessibilityRole="button" accessibilityLabel={label} onPress={() => props.onOpen(item)} style={{ flex: 1, minHeight: MIN_TOUCH, gap: 4 }}>
        <Text style={{ color: palette.text, fontSize: 17, fontWeight: "600" }}>{item.title}</Text>
        {item.description ? (
          <Text numberOfLines={2} style={{ color: palette.muted, fontSize: 15 }}>
            {item.description}
          </Text>
        ) : null}
        <View style={{ flexDirection: "row", flexWrap: "wrap", alignItems: "center", gap: 6, marginTop: 2 }}>
          {pending === undefined ? null : <Badge label={pending} tone="pending" />}
          {item.columnName ? <Badge label={item.columnName} /> : null}
          {item.versionLabel ? <Badge label={item.versionLabel} /> : null}
          {tags.map((tag) => (
            <Badge key={tag.slug} label={tag.name} dot={tag.color} />
          ))}
          {comments === undefined ? null : <Text style={{ color: palette.muted, fontSize: 13 }}>{comments}</Text>}
        </View>
      </Pressable>
    </View>
  );
}
