import { formatReleaseDate, useTidings, type ChangelogRelease } from "@tidings/react-core";
import { Text, View } from "react-native";
import { usePalette } from "../theme.js";
import { MarkdownText } from "./MarkdownText.js";

/** Props of {@link ReleaseNotes}. */
export interface ReleaseNotesProps {
  /** The release to show. */
  entry: ChangelogRelease;
}

/**
 * One release as a card: title, version badge, localized date, and the notes as native text
 * drawn from the server's `blocks` (the `html` is for browsers and is not used here).
 *
 * @example
 * ```tsx
 * <ReleaseNotes entry={release} />
 * ```
 */
export function ReleaseNotes(props: ReleaseNotesProps) {
  const { t, locale } = useTidings();
  const palette = usePalette();
  const { entry } = props;
  const date = formatReleaseDate(entry.publishedAt, locale);
  return (
    <View style={{ backgroundColor: palette.card, borderColor: palette.cardBorder, borderWidth: 1, borderRadius: 12, padding: 16, gap: 8 }}>
      <View style={{ flexDirection: "row", flexWrap: "wrap", alignItems: "center", gap: 8 }}>
        <Text accessibilityRole="header" style={{ color: palette.text, fontSize: 20, fontWeight: "700", flexShrink: 1 }}>
          {entry.title}
        </Text>
        {entry.versionLabel ? (
          <Text style={{ color: palette.chipText, backgroundColor: palette.chipBg, fontSize: 13, fontWeight: "600", paddingHorizontal: 8, paddingVertical: 2, borderRadius: 999, overflow: "hidden" }}>
            {t("changelog.version", { version: entry.versionLabel })}
          </Text>
        ) : null}
      </View>
      {date === "" ? null : <Text style={{ color: palette.muted, fontSize: 14 }}>{date}</Text>}
      <MarkdownText blocks={entry.blocks} markdown={entry.body} />
    </View>
  );
}
