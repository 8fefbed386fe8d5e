import { safeHref, safeImageSrc, type MarkdownBlock, type MarkdownInline, type Palette } from "@tidings/react-core";
import type { ReactNode } from "react";
import { Linking, Platform, ScrollView, Text, View, type TextStyle } from "react-native";
import { usePalette } from "../theme.js";

/** Props of {@link MarkdownText}. */
export interface MarkdownTextProps {
  /** The server's tokens of the notes (a release's `blocks`). Without them, `markdown` shows as plain text. */
  blocks?: MarkdownBlock[] | undefined;
  /** Markdown source, e.g. a release's `body`: shown as plain text, never as markup, when `blocks` is absent (an older server). */
  markdown: string;
  /** Base font size of paragraphs, in points (scaled by the system font size). @default 16 */
  fontSize?: number | undefined;
}

const MONO = Platform.select({ ios: "Menlo", default: "monospace" });
const HEADING_SIZE = { 1: 1.3, 2: 1.2, 3: 1.1, 4: 1, 5: 1, 6: 1 } as const;
const BULLETS = ["•", "◦", "▪"];

/** Opens a link the server let through (http(s) or mailto only); a device without a handler does nothing. */
function open(href: string): void {
  Linking.openURL(href).catch(() => undefined);
}

function inlines(tokens: MarkdownInline[], palette: Palette, key: string): ReactNode[] {
  return tokens.map((token, index) => {
    const k = `${key}.${index}`;
    switch (token.type) {
      case "text":
        return token.text;
      case "break":
        return "\n";
      case "code":
        return (
          <Text key={k} style={{ fontFamily: MONO, backgroundColor: palette.voteBg, color: palette.text }}>
            {token.text}
          </Text>
        );
      case "strong":
        return (
          <Text key={k} style={{ fontWeight: "700" }}>
            {inlines(token.children, palette, k)}
          </Text>
        );
      case "emphasis":
        return (
          <Text key={k} style={{ fontStyle: "italic" }}>
            {inlines(token.children, palette, k)}
          </Text>
        );
      case "strikethrough":
        return (
          <Text key={k} style={{ textDecorationLine: "line-through" }}>
            {inlines(token.children, palette, k)}
          </Text>
        );
      case "link":
        // The server already refuses unsafe targets; a renderer checks again, as it is cheap.
        if (safeHref(token.href) === null) return inlines(token.children, palette, k);
        return (
          <Text key={k} accessibilityRole="link" onPress={() => open(token.href)} style={{ color: palette.primary, textDecorationLine: "underline" }}>
            {inlines(token.children, palette, k)}
          </Text>
        );
      case "image":
        if (safeImageSrc(token.src) === null) return token.alt;
        // Pictures open full size in the browser: sizing remote images inline needs their dimensions first.
        return (
          <Text key={k} accessibilityRole="link" onPress={() => open(token.src)} style={{ color: palette.primary, textDecorationLine: "underline" }}>
            {token.alt || token.src}
          </Text>
        );
    }
  });
}

function blocks(list: MarkdownBlock[], palette: Palette, size: number, key: string, listDepth: number): ReactNode[] {
  const body: TextStyle = { color: palette.text2, fontSize: size };
  return list.map((block, index) => {
    const k = `${key}.${index}`;
    switch (block.type) {
      case "heading":
        return (
          <Text key={k} accessibilityRole="header" style={{ color: palette.text, fontSize: Math.round(size * HEADING_SIZE[block.level]), fontWeight: "700" }}>
            {inlines(block.children, palette, k)}
          </Text>
        );
      case "paragraph":
        return (
          <Text key={k} style={body}>
            {inlines(block.children, palette, k)}
          </Text>
        );
      case "code":
        return (
          <ScrollView key={k} horizontal style={{ backgroundColor: palette.voteBg, borderRadius: 8 }} contentContainerStyle={{ padding: 10 }}>
            <Text selectable style={{ fontFamily: MONO, color: palette.text, fontSize: size - 2 }}>
              {block.text}
            </Text>
          </ScrollView>
        );
      case "quote":
        return (
          <View key={k} style={{ borderLeftWidth: 3, borderLeftColor: palette.border, paddingLeft: 10, gap: 8 }}>
            {blocks(block.children, palette, size, k, listDepth)}
          </View>
        );
      case "rule":
        return <View key={k} style={{ height: 1, backgroundColor: palette.divider, marginVertical: 4 }} />;
      case "list":
        return (
          <View key={k} style={{ gap: 4 }}>
            {block.items.map((item, i) => {
              const marker = item.checked !== null ? (item.checked ? "☑" : "☐") : block.ordered ? `${block.start + i}.` : (BULLETS[listDepth % BULLETS.length] ?? "•");
              return (
                <View key={`${k}.${i}`} style={{ flexDirection: "row", gap: 8 }}>
                  <Text style={{ ...body, minWidth: size * 1.2, textAlign: "right" }}>{marker}</Text>
                  <View style={{ flex: 1, gap: 4 }}>{blocks(item.children, palette, size, `${k}.${i}`, listDepth + 1)}</View>
                </View>
              );
            })}
          </View>
        );
      case "table":
        return (
          <ScrollView key={k} horizontal>
            <View style={{ borderWidth: 1, borderColor: palette.border, borderRadius: 6 }}>
              {[block.header, ...block.rows].map((row, r) => (
                <View key={`${k}.${r}`} style={{ flexDirection: "row", borderTopWidth: r === 0 ? 0 : 1, borderColor: palette.divider }}>
                  {row.map((cell, c) => (
                    <Text key={`${k}.${r}.${c}`} style={{ ...body, fontWeight: r === 0 ? "700" : "400", minWidth: 96, maxWidth: 240, padding: 8, textAlign: block.align[c] ?? "left" }}>
                      {inlines(cell, palette, `${k}.${r}.${c}`)}
                    </Text>
                  ))}
                </View>
              ))}
            </View>
          </ScrollView>
        );
    }
  });
}

/**
 * Release-note Markdown as native text (no WebView, no HTML), drawn from the server's tokens
 * (`blocks`, parsed by the same parser as the web's `html`): headings, lists, code, quotes,
 * tables, emphasis and links; links open through `Linking` and only for http(s) or mailto, any
 * other target showing as plain text. Without `blocks` the Markdown shows as plain text.
 *
 * @example
 * ```tsx
 * <MarkdownText blocks={release.blocks} markdown={release.body} />
 * ```
 */
export function MarkdownText(props: MarkdownTextProps) {
  const palette = usePalette();
  const size = props.fontSize ?? 16;
  if (props.blocks === undefined) {
    return (
      <View>
        <Text style={{ color: palette.text2, fontSize: size }}>{props.markdown}</Text>
      </View>
    );
  }
  return <View style={{ gap: 8 }}>{blocks(props.blocks, palette, size, "md", 0)}</View>;
}
