import type { ReactNode } from "react";
import { useTidings } from "@tidings/react-core";

/**
 * The themed root of every screen: scopes the stylesheet (`.tidings`), the theme's CSS variables
 * and the language. Screens render it themselves; nest freely.
 *
 * @example
 * ```tsx
 * <TidingsScreen label="Feedback"><p>…</p></TidingsScreen>
 * ```
 */
export function TidingsScreen(props: { children?: ReactNode; label?: string; className?: string; as?: "section" | "div" }) {
  const { theme, locale } = useTidings();
  const Tag = props.as ?? "section";
  return (
    <Tag
      className={`tidings${props.className === undefined ? "" : ` ${props.className}`}`}
      data-theme={theme}
      lang={locale}
      {...(props.label === undefined ? {} : { "aria-label": props.label })}
    >
      {props.children}
    </Tag>
  );
}
