// Browser entry of the portal the server serves at /p/<APP_KEY> (bundled by scripts/build-assets.mjs).
import { FeedbackClient, parsePortalPath, portalPath, type PortalRoute, type StorageAdapter, type ThemeName } from "@tidings/client";
import { jwtDecode } from "jwt-decode";
import { StrictMode, useEffect, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import { TidingsPortal, type PortalTab } from "../components/TidingsPortal.js";
import { TidingsProvider } from "@tidings/react-core";
// The portal offers every language Tidings has.
import { allLocales } from "@tidings/react-core/locales";

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

/**
 * The `email` claim of the SSO token, read without checking the signature: only so "Get updates"
 * need not ask for the address. The server verifies the token and decides.
 */
function ssoEmail(token: string | undefined): string | undefined {
  if (token === undefined) return undefined;
  try {
    const claims: unknown = jwtDecode(token);
    const email = typeof claims === "object" && claims !== null ? (claims as { email?: unknown }).email : undefined;
    return typeof email === "string" && email.includes("@") ? email : undefined;
  } catch {
    return undefined;
  }
}

/** Depth of our own history entries, so Back goes back when the previous entry is the portal's. */
function depth(): number {
  const state: unknown = window.history.state;
  return typeof state === "object" && state !== null && typeof (state as { tidings?: unknown }).tidings === "number" ? (state as { tidings: number }).tidings : 0;
}

/** The screen of the current address (links of the old `#requests` form included). */
function currentRoute(appKey: string): PortalRoute {
  const base = `/p/${encodeURIComponent(appKey)}`;
  const path = window.location.pathname;
  const route = parsePortalPath(path.startsWith(base) ? path.slice(base.length) : "") ?? { screen: "home" };
  const hash = window.location.hash.slice(1);
  if (route.screen === "home" && TABS.includes(hash)) return { screen: hash as PortalTab };
  return route;
}

function PortalRoot(props: { client: FeedbackClient; embedded: boolean; appKey: string; appName: string }) {
  const params = new URLSearchParams(window.location.search);
  const [theme, setTheme] = useState<ThemeName | undefined>(() => (params.get("theme") as ThemeName | null) ?? undefined);
  const [locale, setLocale] = useState(() => params.get("locale") ?? "auto");
  const [route, setRoute] = useState<PortalRoute>(() => currentRoute(props.appKey));

  useEffect(() => {
    // The address the server answered stays; an old `#tab` link becomes the tab's address.
    const start = currentRoute(props.appKey);
    const url = window.location.hash !== "" && start.screen !== "home" ? portalPath(props.appKey, start) + window.location.search : window.location.href;
    window.history.replaceState({ ...(typeof window.history.state === "object" ? window.history.state : {}), tidings: depth() }, "", url);
    const onPop = () => setRoute(currentRoute(props.appKey));
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, [props.appKey]);

  const navigate = (next: PortalRoute, title?: string) => {
    const url = portalPath(props.appKey, next, title) + window.location.search;
    if (url !== window.location.pathname + window.location.search) window.history.pushState({ tidings: depth() + 1, title }, "", url);
    setRoute(next);
  };
  const firstScreen = useRef(true);
  useEffect(() => {
    // The tab's title follows the screen after the first (whose title the server wrote): a
    // request's own title, else the app's name.
    if (firstScreen.current) {
      firstScreen.current = false;
      return;
    }
    const state: unknown = window.history.state;
    const title = typeof state === "object" && state !== null && typeof (state as { title?: unknown }).title === "string" ? (state as { title: string }).title : undefined;
    if (props.appName !== "" && (title !== undefined || route.screen !== "request")) document.title = title === undefined ? props.appName : `${title} · ${props.appName}`;
  }, [route, props.appName]);
  return (
    <TidingsProvider client={props.client} theme={theme} locale={locale} locales={allLocales} userEmail={ssoEmail(fragment.ssoToken)}>
      <TidingsPortal
        embedded={props.embedded}
        route={route}
        onNavigate={navigate}
        onBack={() => (depth() > 0 ? window.history.back() : navigate({ screen: "requests" }))}
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
      <PortalRoot client={client} embedded={mount.dataset.embed === "1"} appKey={appKey} appName={mount.dataset.appName ?? ""} />
    </StrictMode>,
  );
}
