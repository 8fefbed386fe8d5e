import type { FeatureRequestItem, FeatureRequestSort } from "@tidings/client";
import { useBoards, useFeatureRequests, useTidings, useVersions, type UseFeatureRequestsOptions } from "@tidings/react-core";
import { useEffect, useState } from "react";
import { AccessibilityInfo, FlatList, Modal, Pressable, RefreshControl, Text, TextInput, View } from "react-native";
import { MIN_TOUCH, usePalette } from "../theme.js";
import { FeatureRequestComposeSheet } from "./FeatureRequestComposeSheet.js";
import { FeatureRequestDetail } from "./FeatureRequestDetail.js";
import { FeatureRequestRow } from "./FeatureRequestRow.js";
import { Chip, ChipRow } from "./FilterChips.js";
import { Screen } from "./Screen.js";
import { ErrorState, Loading, Unavailable } from "./States.js";

/** A line of text above the list: a notice (rate limit, thanks) or an alert (failed vote). */
function Notice(props: { text: string; alert?: boolean }) {
  const palette = usePalette();
  return (
    <Text
      accessibilityRole={props.alert ? "alert" : "text"}
      accessibilityLiveRegion="polite"
      style={{
        marginHorizontal: 12,
        marginBottom: 8,
        padding: 10,
        borderRadius: 8,
        borderWidth: 1,
        fontSize: 15,
        color: props.alert ? palette.danger : palette.text2,
        borderColor: props.alert ? palette.dangerBorder : palette.border,
        backgroundColor: props.alert ? palette.dangerBg : palette.card,
      }}
    >
      {props.text}
    </Text>
  );
}

const SORTS: readonly { sort: FeatureRequestSort; label: "requests.sortTop" | "requests.sortNewest" | "requests.sortTrending" }[] = [
  { sort: "top", label: "requests.sortTop" },
  { sort: "newest", label: "requests.sortNewest" },
  { sort: "trending", label: "requests.sortTrending" },
];

/** Props of {@link FeatureRequestsScreen}; `pageSize`, `sort` and `searchRateLimiterOptions` go to the shared `useFeatureRequests`. */
export interface FeatureRequestsScreenProps extends UseFeatureRequestsOptions {
  /** Show the "Suggest a feature" button and its compose sheet. @default true */
  allowPropose?: boolean | undefined;
  /**
   * Called with a tapped request, for hosts that show it in their own navigation (render
   * `FeatureRequestDetail` there); without it the request opens in a built-in modal.
   * @default the built-in detail modal
   */
  onOpenRequest?: ((item: FeatureRequestItem) => void) | undefined;
  /** Called when the user picks a board (undefined: every board). @default none */
  onBoardChange?: ((slug: string | undefined) => void) | undefined;
}

/**
 * Feature requests: search paced by the shared pacer (250 ms debounce, 2.5 s spacing, 60 s
 * cooldown after a 429 with the results kept and a notice), a board switcher (when the user may
 * see more than one board), version filter, sort, a tag filter, pull to refresh, load more at the
 * end of the list, optimistic votes (own requests not votable), pending-review badges and tags,
 * the compose sheet (to the board shown) and the request detail. Nothing is fetched while the
 * `featureRequests` flag is off.
 *
 * @example
 * ```tsx
 * <FeatureRequestsScreen onOpenRequest={(item) => navigation.navigate("Request", { item })} />
 * ```
 */
export function FeatureRequestsScreen(props: FeatureRequestsScreenProps) {
  const { t, errorMessage } = useTidings();
  const palette = usePalette();
  const list = useFeatureRequests(props);
  const versions = useVersions();
  const boards = useBoards().data ?? [];
  const [composing, setComposing] = useState(false);
  const [thanks, setThanks] = useState<string | undefined>(undefined);
  const [openId, setOpenId] = useState<string | null>(null);
  // A similar request opened from the compose sheet may not be on the loaded page.
  const [fromSheet, setFromSheet] = useState<FeatureRequestItem | null>(null);
  const [pulled, setPulled] = useState(false);

  const rateLimitNotice = t("requests.rateLimited");
  useEffect(() => {
    // iOS has no live regions: say the notice once when it appears.
    if (list.rateLimited) AccessibilityInfo.announceForAccessibility(rateLimitNotice);
  }, [list.rateLimited, rateLimitNotice]);
  useEffect(() => {
    if (list.status !== "loading") setPulled(false);
  }, [list.status]);

  if (!list.enabled) {
    return (
      <Screen label={t("requests.title")}>
        <Unavailable />
      </Screen>
    );
  }

  // A similar request opened from the compose sheet may not be on the loaded page.
  const open = openId === null ? undefined : (list.items.find((i) => i.id === openId) ?? (fromSheet?.id === openId ? fromSheet : undefined));
  const onOpen = (item: FeatureRequestItem) => (props.onOpenRequest === undefined ? setOpenId(item.id) : props.onOpenRequest(item));
  const refresh = () => {
    setPulled(true);
    list.refresh();
  };
  const loadMore = () => {
    if (list.hasMore && !list.loadingMore && list.status === "ready") void list.loadMore();
  };
  const searching = list.query.trim() !== "" || list.tags.length > 0;
  const versionList = versions.data ?? [];
  const pickBoard = (slug: string | undefined) => {
    list.setBoard(slug);
    props.onBoardChange?.(slug);
  };

  const empty =
    list.status === "error" ? (
      <ErrorState message={list.error ?? errorMessage(undefined)} onRetry={list.refresh} />
    ) : list.status !== "ready" ? (
      <Loading />
    ) : (
      <Text style={{ color: palette.muted, fontSize: 16, padding: 16, textAlign: "center" }}>{searching ? t("requests.noResults") : t("requests.empty")}</Text>
    );

  return (
    <Screen label={t("requests.title")}>
      <View style={{ gap: 8, paddingTop: 12, paddingBottom: 8 }}>
        {/* Wraps: at large text sizes or long translations the button goes under the search field. */}
        <View style={{ flexDirection: "row", flexWrap: "wrap", gap: 8, paddingHorizontal: 12 }}>
          <TextInput
            accessibilityRole="search"
            accessibilityLabel={t("requests.search")}
            placeholder={t("requests.searchPlaceholder")}
            placeholderTextColor={palette.muted}
            value={list.query}
            onChangeText={list.setQuery}
            returnKeyType="search"
            autoCorrect={false}
            clearButtonMode="while-editing"
            style={{
              flexGrow: 1,
              flexBasis: 180,
              minHeight: MIN_TOUCH,
              paddingHorizontal: 12,
              borderRadius: 10,
              borderWidth: 1,
              borderColor: palette.inputBorder,
              backgroundColor: palette.inputBg,
              color: palette.text,
              fontSize: 16,
            }}
          />
          {props.allowPropose === false ? null : (
            <Pressable
              accessibilityRole="button"
              accessibilityLabel={t("requests.propose")}
              onPress={() => {
                setThanks(undefined);
                setComposing(true);
              }}
              style={{ minHeight: MIN_TOUCH, minWidth: MIN_TOUCH, justifyContent: "center", paddingHorizontal: 14, borderRadius: 10, backgroundColor: palette.primary }}
            >
              <Text style={{ color: palette.primaryText, fontSize: 16, fontWeight: "600" }}>{t("requests.propose")}</Text>
            </Pressable>
          )}
        </View>
        {boards.length > 1 ? (
          <ChipRow label={t("requests.board")}>
            <Chip label={t("requests.allBoards")} selected={list.board === undefined} onPress={() => pickBoard(undefined)} />
            {boards.map((b) => (
              <Chip key={b.id} label={b.name} selected={list.board === b.slug} onPress={() => pickBoard(b.slug)} />
            ))}
          </ChipRow>
        ) : null}
        {versionList.length > 0 ? (
          <ChipRow label={t("requests.version")}>
            <Chip label={t("requests.allVersions")} selected={list.versionId === undefined} onPress={() => list.setVersionId(undefined)} />
            {versionList.map((v) => (
              <Chip key={v.id} label={v.label} selected={list.versionId === v.id} onPress={() => list.setVersionId(v.id)} />
            ))}
          </ChipRow>
        ) : null}
        <ChipRow label={t("requests.sort")}>
          {SORTS.map((s) => (
            <Chip key={s.sort} label={t(s.label)} selected={list.sort === s.sort} onPress={() => list.setSort(s.sort)} />
          ))}
        </ChipRow>
        {list.tagChoices.length > 0 ? (
          <ChipRow label={t("requests.tagFilter")} multiple>
            {list.tagChoices.map((tag) => (
              <Chip key={tag.slug} label={tag.name} multiple selected={list.tags.includes(tag.slug)} onPress={() => list.toggleTag(tag.slug)} />
            ))}
          </ChipRow>
        ) : null}
      </View>
      {list.rateLimited ? <Notice text={rateLimitNotice} /> : null}
      {thanks === undefined ? null : <Notice text={thanks} />}
      {list.votes.error ? <Notice text={list.votes.error} alert /> : null}
      {list.error && list.items.length > 0 ? <Notice text={list.error} alert /> : null}
      <FlatList
        testID="tidings-requests-list"
        accessibilityLabel={t("requests.title")}
        data={list.items}
        keyExtractor={(item) => item.id}
        renderItem={({ item }) => <FeatureRequestRow item={item} votes={list.votes} onOpen={onOpen} />}
        ListHeaderComponent={
          list.items.length > 0 ? (
            <Text accessibilityLiveRegion="polite" style={{ color: palette.muted, fontSize: 14, paddingHorizontal: 12, paddingBottom: 8 }}>
              {t("requests.count", { count: list.total })}
            </Text>
          ) : null
        }
        ListEmptyComponent={empty}
        ListFooterComponent={
          list.items.length > 0 && list.hasMore ? (
            <Pressable
              accessibilityRole="button"
              accessibilityLabel={t("requests.loadMore")}
              accessibilityState={{ disabled: list.loadingMore, busy: list.loadingMore }}
              disabled={list.loadingMore}
              onPress={loadMore}
              style={{ minHeight: MIN_TOUCH, margin: 12, justifyContent: "center", alignItems: "center", borderRadius: 10, borderWidth: 1, borderColor: palette.border, backgroundColor: palette.card }}
            >
              <Text style={{ color: palette.text, fontSize: 16 }}>{list.loadingMore ? t("common.loading") : t("requests.loadMore")}</Text>
            </Pressable>
          ) : null
        }
        onEndReached={loadMore}
        onEndReachedThreshold={0.5}
        keyboardShouldPersistTaps="handled"
        // `onRefresh` too, so the pull reaches the list itself; the control carries the theme's colours.
        onRefresh={refresh}
        refreshing={pulled && list.status === "loading"}
        refreshControl={<RefreshControl refreshing={pulled && list.status === "loading"} onRefresh={refresh} tintColor={palette.primary} colors={[palette.primary]} progressBackgroundColor={palette.card} />}
        contentContainerStyle={{ paddingBottom: 24 }}
      />
      {props.onOpenRequest === undefined ? (
        <Modal visible={open !== undefined} animationType="slide" presentationStyle="pageSheet" onRequestClose={() => setOpenId(null)}>
          {open === undefined ? null : <FeatureRequestDetail item={open} votes={list.votes} onClose={() => setOpenId(null)} onChange={(patch) => list.updateItem(open.id, patch)} />}
        </Modal>
      ) : null}
      {composing ? (
        <FeatureRequestComposeSheet
          board={list.board}
          onClose={() => setComposing(false)}
          onOpenRequest={(item) => {
            setComposing(false);
            setFromSheet(item);
            onOpen(item);
          }}
          onSubmitted={(result) => {
            setThanks(result.pending ? t("compose.donePending") : t("compose.done"));
            list.refresh();
          }}
        />
      ) : null}
    </Screen>
  );
}
