import { useEffect, useState } from "react";

const listeners = new Set<() => void>();

/** Goes to a dashboard path (`/admin/...`) without reloading. */
export function navigate(path: string): void {
  window.history.pushState(null, "", path);
  for (const listener of listeners) listener();
}

/** The current location path; re-renders on navigation and the back button. */
export function usePath(): string {
  const [path, setPath] = useState(window.location.pathname);
  useEffect(() => {
    const update = () => setPath(window.location.pathname);
    listeners.add(update);
    window.addEventListener("popstate", update);
    return () => {
      listeners.delete(update);
      window.removeEventListener("popstate", update);
    };
  }, []);
  return path;
}

/** `{wsId, appId?, section, itemId?}` of `/admin/w/<ws>/<section>` and `/admin/w/<ws>/a/<app>/<section>[/<item>]`. */
export function parseRoute(path: string): { wsId?: string; appId?: string; section: string; itemId?: string } {
  const parts = path.replace(/^\/admin\/?/, "").split("/").filter(Boolean);
  if (parts[0] !== "w" || parts[1] === undefined) return { section: parts[0] ?? "" };
  if (parts[2] === "a" && parts[3] !== undefined) {
    return { wsId: parts[1], appId: parts[3], section: parts[4] ?? "settings", ...(parts[5] === undefined ? {} : { itemId: parts[5] }) };
  }
  return { wsId: parts[1], section: parts[2] ?? "apps" };
}
