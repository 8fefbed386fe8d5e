import {
  ChangelogOverlay,
  FeatureRequestsScreen,
  FeedbackComposer,
  MIN_TOUCH,
  RoadmapBoardScreen,
  Screen,
  TidingsProvider,
  WhatsNewScreen,
  usePalette,
  useTidings,
} from "@tidings/react-native";
import { de } from "@tidings/react-core/locales/de";
import { fr } from "@tidings/react-core/locales/fr";
import { useState, type ReactElement } from "react";
import { Pressable, Text, View } from "react-native";
import { client } from "./client";
import { pickImage } from "./pick-image";

interface Tab {
  key: string;
  title: string;
  render: () => ReactElement;
}

/** A tab bar over the package's screens; each screen is one entry of `tabs`. */
function Tabs() {
  const { t } = useTidings();
  const palette = usePalette();
  const tabs: Tab[] = [
    { key: "requests", title: t("requests.title"), render: () => <FeatureRequestsScreen /> },
    { key: "roadmap", title: t("roadmap.title"), render: () => <RoadmapBoardScreen /> },
    { key: "changelog", title: t("changelog.title"), render: () => <WhatsNewScreen /> },
    { key: "feedback", title: t("feedback.title"), render: () => <FeedbackComposer pickAttachment={pickImage} /> },
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

/** The languages besides English the app offers: only these packs end up in the bundle. */
const LANGUAGES = [de, fr];

/**
 * The app: the provider once at the top, with the client that keeps its token in AsyncStorage,
 * and the changelog overlay that shows a new release once on launch (spec rule 8).
 */
export function App() {
  return (
    <TidingsProvider client={client} locales={LANGUAGES}>
      <Tabs />
      <ChangelogOverlay onlyIfUnseen autoMarkSeen />
    </TidingsProvider>
  );
}
