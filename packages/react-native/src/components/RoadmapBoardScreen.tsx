import type { FeatureRequestItem } from "@tidings/client";
import { useRoadmap, useTidings, type ToggleVote } from "@tidings/react-core";
import { useState } from "react";
import { FlatList, Pressable, RefreshControl, ScrollView, Text, View } from "react-native";
import { MIN_TOUCH, usePalette } from "../theme.js";
import { Screen } from "./Screen.js";
import { ErrorState, Loading, Unavailable } from "./States.js";
import { VoteButton } from "./VoteButton.js";

/** Props of {@link RoadmapBoardScreen}. */
export interface RoadmapBoardScreenProps {
  /** Called when a request's title is pressed, e.g. to show `FeatureRequestDetail`; without it titles are plain text. @default undefined */
  onOpenRequest?: ((item: FeatureRequestItem) => void) | undefined;
}

/**
 * The roadmap: a tab per visible column in position order, plus the automatic Other tab for
 * requests of hidden or deleted columns (rule 7, grouped by the shared `useRoadmap`), the active
 * tab's requests with their vote buttons, and pull to refresh. With the `roadmap` flag off it
 * shows the unavailable state and fetches nothing.
 *
 * @example
 * ```tsx
 * <RoadmapBoardScreen onOpenRequest={(item) => navigation.navigate("Request", { id: item.id })} />
 * ```
 */
export function RoadmapBoardScreen(props: RoadmapBoardScreenProps) {
  const { t } = useTidings();
  const palette = usePalette();
  const roadmap = useRoadmap();
  const [selected, setSelected] = useState<string | null>(null);
  const title = t("roadmap.title");

  if (!roadmap.enabled) {
    return (
      <Screen label={title}>
        <Unavailable />
      </Screen>
    );
  }
  if (roadmap.status === "error" && roadmap.groups.length === 0) {
    return (
      <Screen label={title}>
        <ErrorState message={roadmap.error ?? ""} onRetry={roadmap.reload} />
      </Screen>
    );
  }
  if (roadmap.status !== "ready" && roadmap.groups.length === 0) {
    return (
      <Screen label={title}>
        <Loading />
      </Screen>
    );
  }
  const groups = roadmap.groups;
  const active = groups.find((g) => g.id === selected) ?? groups[0];
  const nameOf = (column: { name: string } | null) => column?.name ?? t("roadmap.other");
  return (
    <Screen label={title}>
      <ScrollView
        horizontal
        accessibilityRole="tablist"
        accessibilityLabel={title}
        showsHorizontalScrollIndicator={false}
        style={{ flexGrow: 0, borderBottomWidth: 1, borderBottomColor: palette.divider }}
        contentContainerStyle={{ paddingHorizontal: 8, gap: 4 }}
      >
        {groups.map((group) => {
          const isActive = group.id === active?.id;
          const name = nameOf(group.column);
          return (
            <Pressable
              key={group.id}
              accessibilityRole="tab"
              accessibilityLabel={`${name}, ${t("requests.count", { count: group.requests.length })}`}
              accessibilityState={{ selected: isActive }}
              onPress={() => setSelected(group.id)}
              style={{ minHeight: MIN_TOUCH, flexDirection: "row", alignItems: "center", gap: 6, paddingHorizontal: 12, borderBottomWidth: 3, borderBottomColor: isActive ? palette.primary : palette.bg }}
            >
              {group.column?.color ? <View style={{ width: 10, height: 10, borderRadius: 5, backgroundColor: palette.accent }} /> : null}
              <Text style={{ color: isActive ? palette.text : palette.muted, fontWeight: isActive ? "600" : "400", fontSize: 16 }}>{name}</Text>
              <Text style={{ color: palette.chipText, backgroundColor: palette.chipBg, fontSize: 12, paddingHorizontal: 7, borderRadius: 999, overflow: "hidden" }}>{group.requests.length}</Text>
            </Pressable>
          );
        })}
      </ScrollView>
      {roadmap.status === "error" ? <ErrorState message={roadmap.error ?? ""} onRetry={roadmap.reload} /> : null}
      <FlatList
        accessibilityLabel={active === undefined ? undefined : nameOf(active.column)}
        data={active?.requests ?? []}
        keyExtractor={(item) => item.id}
        renderItem={({ item }) => <RoadmapRow item={item} votes={roadmap.votes} onOpen={props.onOpenRequest} />}
        ListEmptyComponent={<Text style={{ color: palette.muted, fontSize: 16, padding: 16 }}>{t("roadmap.empty")}</Text>}
        refreshControl={<RefreshControl refreshing={roadmap.status === "loading"} onRefresh={roadmap.reload} tintColor={palette.primary} colors={[palette.primary]} />}
      />
    </Screen>
  );
}

/** A compact request row: vote button, title (pressable when the host opens requests), pending badge. */
function RoadmapRow(props: { item: FeatureRequestItem; votes: ToggleVote; onOpen: ((item: FeatureRequestItem) => void) | undefined }) {
  const { t } = useTidings();
  const palette = usePalette();
  const { item, onOpen } = props;
  const title = <Text style={{ color: palette.text, fontSize: 16, fontWeight: "600" }}>{item.title}</Text>;
  return (
    <View style={{ flexDirection: "row", alignItems: "center", gap: 12, paddingHorizontal: 12, paddingVertical: 8, borderBottomWidth: 1, borderBottomColor: palette.divider }}>
      <VoteButton item={item} votes={props.votes} />
      <View style={{ flex: 1, gap: 4 }}>
        {onOpen === undefined ? (
          title
        ) : (
          <Pressable accessibilityRole="button" accessibilityLabel={item.title} onPress={() => onOpen(item)} style={{ minHeight: MIN_TOUCH, justifyContent: "center" }}>
            {title}
          </Pressable>
        )}
        {item.approved ? null : (
          <Text style={{ alignSelf: "flex-start", color: palette.danger, backgroundColor: palette.dangerBg, fontSize: 12, fontWeight: "600", paddingHorizontal: 8, borderRadius: 999, overflow: "hidden" }}>
            {t("requests.pending")}
          </Text>
        )}
      </View>
    </View>
  );
}
