import { useChangelog, useTidings, type ChangelogState } from "@tidings/react-core";
import { useState } from "react";
import { FlatList, Pressable, RefreshControl, Text, View } from "react-native";
import { MIN_TOUCH, usePalette } from "../theme.js";
import { EmailField } from "./EmailField.js";
import { ReleaseNotes } from "./ReleaseNotes.js";
import { Screen } from "./Screen.js";
import { ErrorState, Loading, Unavailable } from "./States.js";

/** Props of {@link WhatsNewScreen}. */
export interface WhatsNewScreenProps {
  /** Show the email subscribe field above the releases. @default true */
  showSubscribe?: boolean | undefined;
}

/**
 * The what's-new screen: published releases with their notes as native text, older releases on
 * demand, pull to refresh, and the email subscription. Unavailable while the `changelog` flag is
 * off, and nothing is fetched then.
 *
 * @example
 * ```tsx
 * <WhatsNewScreen />
 * ```
 */
export function WhatsNewScreen(props: WhatsNewScreenProps) {
  const { t } = useTidings();
  const palette = usePalette();
  const changelog = useChangelog();

  if (!changelog.enabled) {
    return (
      <Screen label={t("changelog.title")}>
        <Unavailable />
      </Screen>
    );
  }
  const empty =
    changelog.status === "error" ? (
      <ErrorState message={changelog.error ?? ""} onRetry={changelog.reload} />
    ) : changelog.status !== "ready" ? (
      <Loading />
    ) : (
      <Text style={{ color: palette.muted, fontSize: 16, padding: 16 }}>{t("changelog.empty")}</Text>
    );
  return (
    <Screen label={t("changelog.title")}>
      <FlatList
        data={changelog.entries}
        keyExtractor={(entry) => entry.id}
        renderItem={({ item }) => <ReleaseNotes entry={item} />}
        contentContainerStyle={{ padding: 12, gap: 12 }}
        ListHeaderComponent={
          <>
            {props.showSubscribe === false ? null : <SubscribeField changelog={changelog} />}
            {changelog.status === "error" && changelog.entries.length > 0 ? <ErrorState message={changelog.error ?? ""} onRetry={changelog.reload} /> : null}
          </>
        }
        ListEmptyComponent={empty}
        ListFooterComponent={
          changelog.hasMore ? (
            <Pressable
              accessibilityRole="button"
              accessibilityLabel={t("changelog.loadMore")}
              onPress={() => void changelog.loadMore()}
              style={{ minHeight: MIN_TOUCH, alignItems: "center", justifyContent: "center", borderRadius: 10, borderWidth: 1, borderColor: palette.border, backgroundColor: palette.card }}
            >
              <Text style={{ color: palette.text, fontSize: 16 }}>{t("changelog.loadMore")}</Text>
            </Pressable>
          ) : null
        }
        refreshControl={<RefreshControl refreshing={changelog.status === "loading" && changelog.entries.length > 0} onRefresh={changelog.reload} tintColor={palette.primary} colors={[palette.primary]} />}
      />
    </Screen>
  );
}

/** The email subscription (double opt-in) through the shared `useChangelog().subscribe`. */
function SubscribeField({ changelog }: { changelog: ChangelogState }) {
  const { t } = useTidings();
  const palette = usePalette();
  const [email, setEmail] = useState("");
  const [subscribed, setSubscribed] = useState(false);
  const blank = email.trim() === "";
  const submit = async () => {
    if (blank || changelog.subscribing) return;
    if (await changelog.subscribe(email)) setSubscribed(true);
  };

  if (subscribed) {
    return (
      <View accessibilityLiveRegion="polite" style={{ padding: 12, borderRadius: 10, borderWidth: 1, borderColor: palette.cardBorder, backgroundColor: palette.card, marginBottom: 4 }}>
        <Text style={{ color: palette.success, fontSize: 16 }}>{t("changelog.subscribed")}</Text>
      </View>
    );
  }
  return (
    <View style={{ gap: 8, marginBottom: 4 }}>
      <Text style={{ color: palette.text, fontSize: 16, fontWeight: "600" }}>{t("changelog.subscribe")}</Text>
      <View style={{ flexDirection: "row", gap: 8 }}>
        <EmailField label={t("changelog.email")} value={email} onChangeText={setEmail} onSubmit={() => void submit()} />
        <Pressable
          accessibilityRole="button"
          accessibilityLabel={t("changelog.subscribeButton")}
          accessibilityState={{ disabled: blank || changelog.subscribing, busy: changelog.subscribing }}
          disabled={blank || changelog.subscribing}
          onPress={() => void submit()}
          style={{ minHeight: MIN_TOUCH, minWidth: MIN_TOUCH, paddingHorizontal: 14, justifyContent: "center", borderRadius: 10, backgroundColor: palette.primary, opacity: blank ? 0.6 : 1 }}
        >
          <Text style={{ color: palette.primaryText, fontSize: 16, fontWeight: "600" }}>{t("changelog.subscribeButton")}</Text>
        </Pressable>
      </View>
      {changelog.subscribeError ? (
        <Text accessibilityRole="alert" accessibilityLiveRegion="polite" style={{ color: palette.danger, fontSize: 14 }}>
          {changelog.subscribeError}
        </Text>
      ) : null}
    </View>
  );
}
