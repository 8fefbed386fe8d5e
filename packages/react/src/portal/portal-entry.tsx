// Browser entry of the portal the server serves at /p/<APP_KEY> (bundled by scripts/build-assets.mjs).
import { FeedbackClient, type StorageAdapter, type ThemeName } from "@tidings/client";
import { StrictMode, useState } from "react";
import { createRoot } from "react-dom/client";
import { TidingsPortal, type PortalTab } from "../components/TidingsPortal.js";
import { TidingsProvider } from "@tidings/react-core";

const TABS: readonly string[] = ["roadmap", "requests", "changelog", "feedback"];

/** localStorage when the browser allows it (private modes and sandboxed frames may not). */
function browserStorage(): StorageAdapter | undefined {
  try {
    const probe = "__tidings_probe__";
    window.localStorage.setItem(probe, "1");
    window.localStorage.removeItem(probe);
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * The fragment: a tab name (`#requests`), or parameters (`#tab=requests&ssoToken=…`). The SSO
 * token travels in the fragment because browsers send fragments neither to the server (no access
 * log holds it) nor in Referer; it is removed from the address bar as soon as it is read.
 */
function readFragment(): { tab: string; ssoToken: string | undefined } {
  const hash = window.location.hash.slice(1);
  if (!hash.includes("=")) return { tab: hash, ssoToken: undefined };
  const params = new URLSearchParams(hash);
  const tab = params.get("tab") ?? "";
  const ssoToken = params.get("ssoToken") ?? undefined;
  if (ssoToken !== undefined) history.replaceState(null, "", `${window.location.pathname}${window.location.search}${tab === "" ? "" : `#${tab}`}`);
  return { tab, ssoToken };
}

const fragment = readFragment();

function PortalRoot(props: { client: FeedbackClient; embedded: boolean }) {
  const params = new URLSearchParams(window.location.search);
  const [theme, setTheme] = useState<ThemeName | undefined>(() => (params.get("theme") as ThemeName | null) ?? undefined);
  const [locale, setLocale] = useState(() => params.get("locale") ?? "auto");
  const hash = fragment.tab;
  return (
    <TidingsProvider client={props.client} theme={theme} locale={locale}>
      <TidingsPortal
        embedded={props.embedded}
        initialTab={TABS.includes(hash) ? (hash as PortalTab) : undefined}
        onTabChange={(tab) => history.replaceState(null, "", `#${tab}`)}
        onThemeChange={setTheme}
        onLocaleChange={setLocale}
      />
    </TidingsProvider>
  );
}

const mount = document.getElementById("tidings-portal");
if (mount !== null) {
  const appKey = mount.dataset.appKey ?? "";
  const client = new FeedbackClient({
    baseUrl: mount.dataset.baseUrl || window.location.origin,
    appKey,
    storage: browserStorage(),
    ssoToken: fragment.ssoToken,
    warn: () => undefined,
  });
  document.documentElement.dataset.ready = "false";
  createRoot(mount).render(
    <StrictMode>
      <PortalRoot client={client} embedded={mount.dataset.embed === "1"} />
    </StrictMode>,
  );
}
