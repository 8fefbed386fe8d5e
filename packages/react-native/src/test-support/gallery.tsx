// The browser gallery: the package's screens rendered through react-native-web (esbuild aliases
// `react-native` to it), one per page, against a real server. The e2e test
// (e2e/src/react-native/gallery.test.ts) opens `?screen=<name>&theme=light|dark&api=<url>` for
// every name in `screens` at phone size and saves a screenshot of each.
//
// Adding a screen is one line in `screens`. Each entry renders a screen root (`<Screen>`, which
// every screen renders itself): the test finds it by its testID and checks its label and colours.
import { FeedbackClient, memoryStorage, type ThemeName } from "@tidings/client";
import { useFeatureRequests, useTidings } from "@tidings/react-core";
import { Component, useMemo, type ReactElement, type ReactNode } from "react";
import { AppRegistry, ScrollView, Text, View } from "react-native";
import { TidingsProvider } from "../TidingsProvider.js";
import { Screen } from "../components/Screen.js";
import { ErrorState, Loading, Unavailable } from "../components/States.js";
import { VoteButton } from "../components/VoteButton.js";
import { FeatureRequestComposeSheet } from "../components/FeatureRequestComposeSheet.js";
import { FeatureRequestDetail } from "../components/FeatureRequestDetail.js";
import { FeatureRequestsScreen } from "../components/FeatureRequestsScreen.js";
import { FeedbackComposer } from "../components/FeedbackComposer.js";
import { UserProfileScreen } from "../components/UserProfileScreen.js";
import { ChangelogOverlay } from "../components/ChangelogOverlay.js";
import { RoadmapBoardScreen } from "../components/RoadmapBoardScreen.js";
import { WhatsNewScreen } from "../components/WhatsNewScreen.js";
import { runtimePlatform } from "../runtime-platform.js";
import { usePalette } from "../theme.js";

/** The parts on their own until the feature-request screen shows them: the listing's vote buttons. */
function VoteButtons() {
  const { t } = useTidings();
  const palette = usePalette();
  const list = useFeatureRequests({ pageSize: 8, sort: "newest" });
  return (
    <Screen label={t("requests.title")}>
      <ScrollView contentContainerStyle={{ padding: 12, gap: 10 }}>
        {list.status === "loading" && list.items.length === 0 ? <Loading /> : null}
        {list.items.map((item) => (
          <View key={item.id} style={{ flexDirection: "row", gap: 12, alignItems: "center", padding: 12, borderRadius: 12, borderWidth: 1, borderColor: palette.cardBorder, backgroundColor: palette.card }}>
            <VoteButton item={item} votes={list.votes} />
            <View style={{ flex: 1, gap: 4 }}>
              <Text style={{ color: palette.text, fontSize: 16, fontWeight: "600" }}>{item.title}</Text>
              {item.description ? <Text style={{ color: palette.muted, fontSize: 14 }} numberOfLines={2}>{item.description}</Text> : null}
              {item.approved ? null : <Text style={{ color: palette.chipText, fontSize: 12 }}>{t("requests.pending")}</Text>}
            </View>
          </View>
        ))}
      </ScrollView>
    </Screen>
  );
}

/** The loading, error (with retry) and unavailable states. */
function States() {
  const { t } = useTidings();
  return (
    <Screen label="States">
      <Loading />
      <ErrorState message={t("common.loadError")} onRetry={() => undefined} />
      <Unavailable />
    </Screen>
  );
}

/** The detail of the board's most voted request, as a tap on its row opens it. */
function Detail() {
  const list = useFeatureRequests({ pageSize: 1, sort: "top" });
  const first = list.items[0];
  return first === undefined ? <Loading /> : <FeatureRequestDetail item={first} votes={list.votes} />;
}

/** The profile of the first requester on the board the host identified, else the gallery's user. */
function Profile() {
  const list = useFeatureRequests({ pageSize: 20, sort: "newest" });
  if (list.status !== "ready") return <Loading />;
  const identified = list.items.find((item) => typeof item.requesterClerkId === "string")?.requesterClerkId;
  return <UserProfileScreen userId={identified ?? readParams().user ?? "gallery-user-0001"} />;
}

/** Every screen the gallery shows, by the name the test and the URL use. */
export const screens: Record<string, () => ReactElement> = {
  "vote-buttons": () => <VoteButtons />,
  states: () => <States />,
  "feature-requests": () => <FeatureRequestsScreen />,
  "request-detail": () => <Detail />,
  "compose-sheet": () => <FeatureRequestComposeSheet visible onClose={() => undefined} />,
  feedback: () => <FeedbackComposer pickAttachment={() => null} />,
  profile: () => <Profile />,
  roadmap: () => <RoadmapBoardScreen />,
  "whats-new": () => <WhatsNewScreen />,
  // A Modal over the host's screen: the gallery's empty screen stands for the host app.
  "changelog-overlay": () => (
    <Screen label="Host app">
      <ChangelogOverlay onlyIfUnseen={false} autoMarkSeen={false} />
    </Screen>
  ),
};

/** Catches a render error so the page shows it (`gallery-error`) instead of a blank screen. */
class Boundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: undefined };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    if (this.state.error === undefined) return this.props.children;
    return (
      <Text testID="gallery-error" accessibilityRole="alert" style={{ color: "#b91c1c", padding: 16 }}>
        {String(this.state.error instanceof Error ? (this.state.error.stack ?? this.state.error.message) : this.state.error)}
      </Text>
    );
  }
}

interface GalleryParams {
  screen: string | null;
  theme: ThemeName;
  api: string;
  appKey: string;
  user: string | undefined;
}

function readParams(): GalleryParams {
  const location = (globalThis as unknown as { location: { search: string; origin: string } }).location;
  const query = new URLSearchParams(location.search);
  return {
    screen: query.get("screen"),
    theme: (query.get("theme") ?? "light") as ThemeName,
    api: query.get("api") ?? location.origin,
    appKey: query.get("appKey") ?? "app_demo",
    user: query.get("user") ?? undefined,
  };
}

function Gallery() {
  const params = useMemo(readParams, []);
  const client = useMemo(
    () => new FeedbackClient({ baseUrl: params.api, appKey: params.appKey, defaultPlatform: runtimePlatform(), storage: memoryStorage(), warn: () => undefined }),
    [params],
  );
  if (params.screen === null) {
    return (
      <View testID="gallery-index" style={{ padding: 16, gap: 8 }}>
        {Object.keys(screens).map((name) => (
          <Text key={name} testID="gallery-screen-name">
            {name}
          </Text>
        ))}
      </View>
    );
  }
  const render = screens[params.screen];
  if (render === undefined) throw new Error(`No screen "${params.screen}" in the gallery; known: ${Object.keys(screens).join(", ")}`);
  return (
    <TidingsProvider client={client} theme={params.theme} locale="en" userToken={params.user}>
      {render()}
    </TidingsProvider>
  );
}

function Root() {
  return (
    <Boundary>
      <Gallery />
    </Boundary>
  );
}

AppRegistry.registerComponent("TidingsGallery", () => Root);
AppRegistry.runApplication("TidingsGallery", { rootTag: (globalThis as unknown as { document: { getElementById(id: string): unknown } }).document.getElementById("root") });
