import AsyncStorage from "@react-native-async-storage/async-storage";
import { FeedbackClient } from "@tidings/client";
import {
  ChangelogOverlay,
  FeatureRequestsScreen,
  FeedbackComposer,
  MIN_TOUCH,
  RoadmapBoardScreen,
  Screen,
  TidingsProvider,
  WhatsNewScreen,
  runtimePlatform,
  usePalette,
  useTidings,
} from "@tidings/react-native";
import { useState } from "react";
import { Platform, Pressable, Text, View } from "react-native";

// `npm start` in the Tidings repository serves the demo app on port 8787. The Android emulator
// reaches your machine at 10.0.2.2; on a phone, put your machine's address or your server here.
const client = new FeedbackClient({
  baseUrl: Platform.OS === "android" ? "http://10.0.2.2:8787" : "http://localhost:8787",
  appKey: "app_demo",
  storage: AsyncStorage, // the user token and seen releases survive restarts
  defaultPlatform: runtimePlatform(), // ios or android, from Platform.OS
});

const TABS = [
  { key: "requests.title", Body: FeatureRequestsScreen },
  { key: "roadmap.title", Body: RoadmapBoardScreen },
  { key: "changelog.title", Body: WhatsNewScreen },
  { key: "feedback.title", Body: FeedbackComposer },
] as const;

/** One tab per Tidings screen, titled in the user's language. */
function Tabs() {
  const { t } = useTidings();
  const palette = usePalette();
  const [current, setCurrent] = useState(0);
  const { key, Body } = TABS[current] ?? TABS[0];
  return (
    <Screen label={t(key)}>
      <View style={{ flex: 1 }}>
        <Body />
      </View>
      <View accessibilityRole="tablist" style={{ flexDirection: "row", borderTopWidth: 1, borderTopColor: palette.divider }}>
        {TABS.map((tab, index) => (
          <Pressable
            key={tab.key}
            accessibilityRole="tab"
            accessibilityState={{ selected: index === current }}
            onPress={() => setCurrent(index)}
            style={{ flex: 1, minHeight: MIN_TOUCH + 12, alignItems: "center", justifyContent: "center" }}
          >
            <Text style={{ color: index === current ? palette.primary : palette.muted, fontWeight: "600" }}>{t(tab.key)}</Text>
          </Pressable>
        ))}
      </View>
    </Screen>
  );
}

export default function App() {
  return (
    <TidingsProvider client={client}>
      <Tabs />
      {/* A new release shows once, on launch (spec rule 8). */}
      <ChangelogOverlay onlyIfUnseen autoMarkSeen />
    </TidingsProvider>
  );
}
