// Browser entry of the portal the server serves at /p/<APP_KEY> (bundled by scripts/build-assets.mjs).
import { FeedbackClient, type PortalRoute, type PublicTag, type StorageAdapter, type ThemeName } from "@tidings/client";
import { jwtDecode } from "jwt-decode";
import { StrictMode, useEffect, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import type { PortalTab } from "../components/portal-tabs.js";
import { TidingsPortal } from "../components/TidingsPortal.js";
import { TidingsProvider } from "@tidings/react-core";
// The portal offers every language Tidings has.
import { allLocales } from "@tidings/react-core/locales";
import { BoardNotFound, PortalFilters, type PortalBoard } from "./PortalFilters.js";
import { addressOf, NO_FILTERS, readAddress, sameFilters, type ListFilters } from "./portal-address.js";

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

/** What the address bar shows: a screen, and the filters of the list. */
interface View {
  route: PortalRoute;
  filters: ListFilters;
}

/** The screen and filters of the current address (links of the old `#requests` form included). */
function currentView(appKey: string): View {
  const view = readAddress(appKey, window.location.pathname, window.location.search);
  const hash = window.location.hash.slice(1);
  if (view.route.screen === "home" && TABS.includes(hash)) return { route: { screen: hash as PortalTab }, filters: NO_FILTERS };
  return view;
}

/**
 * The filters the list uses on a screen: its own on the list; a request or a profile opened from
 * the list keeps the list's (so Back shows it as it was, without loading it again); elsewhere none.
 */
function listFilters(next: View, previous: ListFilters): ListFilters {
  if (next.route.screen === "request" || next.route.screen === "profile") return previous;
  return next.route.screen === "requests" ? next.filters : NO_FILTERS;
}

/** JSON the server put in a data attribute of the mount; empty when absent or unreadable. */
function dataList<T>(json: string | undefined): T[] {
  try {
    const value: unknown = JSON.parse(json ?? "[]");
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}

function PortalRoot(props: {
  client: FeedbackClient;
  embedded: boolean;
  appKey: string;
  appName: string;
  boards: PortalBoard[];
  tags: PublicTag[];
}) {
  const params = new URLSearchParams(window.location.search);
  const [theme, setTheme] = useState<ThemeName | undefined>(() => (params.get("theme") as ThemeName | null) ?? undefined);
  const [locale, setLocale] = useState(() => params.get("locale") ?? "auto");
  const [view, setView] = useState<View>(() => currentView(props.appKey));
  const [filters, setFilters] = useState<ListFilters>(() => listFilters(view, NO_FILTERS));
  // The page names the public boards. A board it does not name may be a private one the visitor
  // signed in through SSO is admitted to: the boards are asked again with their identity (the API
  // answers each visitor privately), once; without a token, or when it is not among them, not found.
  const [boards, setBoards] = useState(props.boards);
  const [askedBoards, setAskedBoards] = useState(fragment.ssoToken === undefined);
  const unlisted = filters.board !== undefined && !boards.some((b) => b.slug === filters.board);
  useEffect(() => {
    if (!unlisted || askedBoards) return;
    let live = true;
    props.client
      .listBoards()
      .then((all) => live && setBoards(all.map((b) => ({ id: b.id, slug: b.slug, name: b.name }))))
      .catch(() => undefined)
      .finally(() => live && setAskedBoards(true));
    return () => {
      live = false;
    };
  }, [unlisted, askedBoards, props.client]);
  // The filters the list shows, kept while a request or profile is open over it.
  const listed = useRef(filters);
  const route = view.route;

  const show = (next: View) => {
    const kept = listFilters(next, listed.current);
    listed.current = kept;
    setFilters((old) => (sameFilters(old, kept) ? old : kept));
    setView(next);
  };

  useEffect(() => {
    // The address the server answered stays; an old `#tab` link becomes the tab's address.
    const start = currentView(props.appKey);
    const url = window.location.hash !== "" && start.route.screen !== "home" ? addressOf(props.appKey, start.route, start.filters, window.location.search) : window.location.href;
    window.history.replaceState({ ...(typeof window.history.state === "object" ? window.history.state : {}), tidings: depth() }, "", url);
    const onPop = () => show(currentView(props.appKey));
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, [props.appKey]);

  const go = (next: View, title?: string) => {
    const url = addressOf(props.appKey, next.route, next.filters, window.location.search, title);
    if (url !== window.location.pathname + window.location.search) window.history.pushState({ tidings: depth() + 1, title }, "", url);
    show(next);
  };
  // A section's tab shows the whole list; a request or profile keeps the list's filters.
  const navigate = (next: PortalRoute, title?: string) => go({ route: next, filters: next.screen === "requests" ? NO_FILTERS : filters }, title);
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
      <div className="td-portal-frame">
        <PortalFilters
          boards={boards}
          tags={props.tags}
          route={route}
          filters={filters}
          hrefOf={(next) => addressOf(props.appKey, { screen: "requests" }, next, window.location.search)}
          onFilter={(next) => go({ route: { screen: "requests" }, filters: next })}
        />
        {/* Other filters are another list: it loads anew. */}
        {unlisted ? <BoardNotFound looking={!askedBoards} /> : <TidingsPortal
          key={`${filters.board ?? ""}|${filters.tags.join(",")}`}
          embedded={props.embedded}
          requestFilters={filters}
          route={route}
          onNavigate={navigate}
          onBack={() => (depth() > 0 ? window.history.back() : go({ route: { screen: "requests" }, filters }))}
          onThemeChange={setTheme}
          onLocaleChange={setLocale}
        />}
      </div>
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
  createRoot(mount).render(
    <StrictMode>
      <PortalRoot
        client={client}
        embedded={mount.dataset.embed === "1"}
        appKey={appKey}
        appName={mount.dataset.appName ?? ""}
        boards={dataList<PortalBoard>(mount.dataset.boards)}
        tags={dataList<PublicTag>(mount.dataset.tags)}
      />
    </StrictMode>,
  );
}
