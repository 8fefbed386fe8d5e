import {
  ErrorState,
  Loading,
  MIN_TOUCH,
  Screen,
  TidingsProvider,
  Unavailable,
  VoteButton,
  useFeatureRequests,
  useFeedbackComposer,
  usePalette,
  useTidings,
} from "@tidings/react-native";
import { useState, type ReactElement } from "react";
import { ActivityIndicator, FlatList, Pressable, ScrollView, Text, TextInput, View } from "react-native";
import { client } from "./client";
import { pickImage } from "./pick-image";

/** The feature requests with their vote buttons, pull to refresh and load more. */
function RequestsTab() {
  const { t } = useTidings();
  const palette = usePalette();
  const list = useFeatureRequests();
  if (!list.enabled) return <Unavailable />;
  if (list.status === "error" && list.items.length === 0) return <ErrorState message={list.error ?? t("common.loadError")} onRetry={list.refresh} />;
  if (list.status !== "ready" && list.items.length === 0) return <Loading />;
  return (
    <FlatList
      data={list.items}
      keyExtractor={(item) => item.id}
      refreshing={list.status === "loading"}
      onRefresh={list.refresh}
      onEndReached={() => void (list.hasMore ? list.loadMore() : undefined)}
      contentContainerStyle={{ padding: 12, gap: 10 }}
      renderItem={({ item }) => (
        <View style={{ flexDirection: "row", gap: 12, alignItems: "center", padding: 12, borderRadius: 12, borderWidth: 1, borderColor: palette.cardBorder, backgroundColor: palette.card }}>
          <VoteButton item={item} votes={list.votes} />
          <View style={{ flex: 1, gap: 4 }}>
            <Text style={{ color: palette.text, fontSize: 16, fontWeight: "600" }}>{item.title}</Text>
            {item.approved ? null : <Text style={{ color: palette.chipText, fontSize: 13 }}>{t("requests.pending")}</Text>}
          </View>
        </View>
      )}
    />
  );
}

/** Title, details and screenshots from the image picker, sent as feedback. */
function FeedbackTab() {
  const { t } = useTidings();
  const palette = usePalette();
  const composer = useFeedbackComposer();
  if (!composer.enabled) return <Unavailable message={t("feedback.unavailable")} />;
  const input = { color: palette.text, backgroundColor: palette.inputBg, borderColor: palette.inputBorder, borderWidth: 1, borderRadius: 8, padding: 12, fontSize: 16, minHeight: MIN_TOUCH };
  const label = { color: palette.text2, fontSize: 14 };
  return (
    <ScrollView contentContainerStyle={{ padding: 16, gap: 8 }} keyboardShouldPersistTaps="handled">
      <Text style={label}>{t("feedback.subject")}</Text>
      <TextInput accessibilityLabel={t("feedback.subject")} value={composer.title} onChangeText={composer.setTitle} style={input} />
      <Text style={label}>{t("feedback.details")}</Text>
      <TextInput accessibilityLabel={t("feedback.details")} value={composer.details} onChangeText={composer.setDetails} multiline style={[input, { minHeight: 120, textAlignVertical: "top" }]} />
      {composer.attachments.map((a) => (
        <View key={a.id} style={{ flexDirection: "row", alignItems: "center", gap: 8, minHeight: MIN_TOUCH }}>
          {a.status === "uploading" ? <ActivityIndicator color={palette.primary} accessibilityLabel={t("feedback.uploading", { name: a.name })} /> : null}
          <Text style={{ flex: 1, color: a.status === "error" ? palette.danger : palette.text }}>
            {a.status === "error" ? (a.error ?? t("feedback.uploadFailed", { name: a.name })) : a.status === "ready" ? t("feedback.uploaded", { name: a.name }) : a.name}
          </Text>
          <Pressable accessibilityRole="button" accessibilityLabel={t("feedback.remove", { name: a.name })} onPress={() => composer.removeAttachment(a.id)} style={{ minWidth: MIN_TOUCH, minHeight: MIN_TOUCH, alignItems: "center", justifyContent: "center" }}>
            <Text style={{ color: palette.muted, fontSize: 18 }}>✕</Text>
          </Pressable>
        </View>
      ))}
      <Pressable
        accessibilityRole="button"
        accessibilityLabel={t("feedback.attach")}
        onPress={() => void pickImage().then((picked) => picked && composer.addAttachment(picked))}
        style={{ minHeight: MIN_TOUCH, justifyContent: "center", alignSelf: "flex-start", paddingHorizontal: 14, borderRadius: 8, borderWidth: 1, borderColor: palette.border }}
      >
        <Text style={{ color: palette.text, fontSize: 16 }}>{t("feedback.attach")}</Text>
      </Pressable>
      {composer.error === undefined ? null : <Text accessibilityRole="alert" style={{ color: palette.danger, fontSize: 15 }}>{composer.error}</Text>}
      {composer.status === "sent" ? <Text accessibilityRole="alert" style={{ color: palette.success, fontSize: 15 }}>{t("feedback.sent")}</Text> : null}
      <Pressable
        accessibilityRole="button"
        accessibilityLabel={t("feedback.submit")}
        accessibilityState={{ disabled: !composer.canSubmit, busy: composer.status === "submitting" }}
        disabled={!composer.canSubmit}
        onPress={() => void composer.submit()}
        style={{ minHeight: MIN_TOUCH, justifyContent: "center", alignItems: "center", borderRadius: 8, backgroundColor: palette.primary, opacity: composer.canSubmit ? 1 : 0.5 }}
      >
        <Text style={{ color: palette.primaryText, fontSize: 16, fontWeight: "600" }}>{composer.status === "submitting" ? t("feedback.sending") : t("feedback.submit")}</Text>
      </Pressable>
    </ScrollView>
  );
}

interface Tab {
  key: string;
  title: string;
  render: () => ReactElement;
}

/** A tab bar over the screens; each screen is one entry of `tabs`. */
function Tabs() {
  const { t } = useTidings();
  const palette = usePalette();
  const tabs: Tab[] = [
    { key: "requests", title: t("requests.title"), render: () => <RequestsTab /> },
    { key: "feedback", title: t("feedback.title"), render: () => <FeedbackTab /> },
  ];
  const [current, setCurrent] = useState(tabs[0]!.key);
  const active = tabs.find((tab) => tab.key === current) ?? tabs[0]!;
  return (
    <Screen label={active.title}>
      <View style={{ flex: 1 }}>{active.render()}</View>
      <View accessibilityRole="tablist" style={{ flexDirection: "row", borderTopWidth: 1, borderTopColor: palette.divider, backgroundColor: palette.card }}>
        {tabs.map((tab) => (
          <Pressable
            key={tab.key}
            accessibilityRole="tab"
            accessibilityLabel={tab.title}
            accessibilityState={{ selected: tab.key === active.key }}
            onPress={() => setCurrent(tab.key)}
            style={{ flex: 1, minHeight: MIN_TOUCH + 12, alignItems: "center", justifyContent: "center" }}
          >
            <Text style={{ color: tab.key === active.key ? palette.primary : palette.muted, fontSize: 14, fontWeight: "600" }}>{tab.title}</Text>
          </Pressable>
        ))}
      </View>
    </Screen>
  );
}

/** The app: the provider once at the top, with the client that keeps its token in AsyncStorage. */
export function App() {
  return (
    <TidingsProvider client={client}>
      <Tabs />
    </TidingsProvider>
  );
}
