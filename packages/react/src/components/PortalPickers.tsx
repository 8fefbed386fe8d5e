import type { ThemeName } from "@tidings/client";
import { THEMES, useTidings } from "@tidings/react-core";

/** Each language by its own name, as the language picker lists them. */
const LANGUAGE_NAMES: Record<string, string> = {
  en: "English", fr: "Français", es: "Español", de: "Deutsch", it: "Italiano", pt: "Português", ja: "日本語",
  "zh-Hant": "繁體中文", ko: "한국어", pl: "Polski", no: "Norsk", tr: "Türkçe", vi: "Tiếng Việt", "zh-Hans": "简体中文",
};

/** The theme picker and the language picker of the portal's header, each shown when its callback is given. */
export function PortalPickers(props: { onThemeChange?: ((theme: ThemeName) => void) | undefined; onLocaleChange?: ((locale: string) => void) | undefined }) {
  const { t, theme, locale, locales } = useTidings();
  return (
    <div className="td-pickers">
      {props.onThemeChange ? (
        <label className="td-picker">
          <span className="td-visually-hidden">{t("portal.theme")}</span>
          <select className="td-input" value={theme} onChange={(e) => props.onThemeChange?.(e.target.value as ThemeName)}>
            {THEMES.map((name) => (
              <option key={name} value={name}>
                {t(`theme.${name}`)}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {props.onLocaleChange ? (
        <label className="td-picker">
          <span className="td-visually-hidden">{t("portal.language")}</span>
          <select className="td-input" value={locale} onChange={(e) => props.onLocaleChange?.(e.target.value)}>
            {locales.map((code) => (
              <option key={code} value={code}>
                {LANGUAGE_NAMES[code] ?? code}
              </option>
            ))}
          </select>
        </label>
      ) : null}
    </div>
  );
}
