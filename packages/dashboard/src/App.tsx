import type { SessionState } from "@tidings/protocol";
import { useCallback, useEffect, useState } from "react";
import { api, onSessionLost, setCsrfToken } from "./api.js";
import { ErrorBanner } from "./components/ui.js";
import { t } from "./i18n/t.js";
import { AcceptInvite } from "./pages/AcceptInvite.js";
import { Setup } from "./pages/Setup.js";
import { SignIn } from "./pages/SignIn.js";
import { navigate, usePath } from "./router.js";
import { Shell } from "./Shell.js";

/** The dashboard: session state decides between setup, sign-in, invitation and the signed-in shell. */
export function App() {
  const path = usePath();
  const [session, setSession] = useState<SessionState | null>(null);
  const [bootError, setBootError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const accept = useCallback((state: SessionState) => {
    setCsrfToken(state.csrfToken);
    setNotice(undefined);
    setSession(state);
    if (state.user !== null && window.location.pathname.startsWith("/admin/accept-invite")) navigate("/admin/");
  }, []);
  const load = useCallback(() => {
    setBootError(null);
    api<SessionState>("GET", "/auth/session").then(accept, setBootError);
  }, [accept]);
  useEffect(() => {
    // A lost session returns to sign-in on the same page, so signing in again carries on where the user was.
    onSessionLost(() => {
      setCsrfToken(null);
      setNotice(t("auth.sessionEnded"));
      setSession((s) => (s === null ? s : { ...s, user: null, csrfToken: null }));
    });
    load();
  }, [load]);

  if (session === null) {
    return bootError === null ? <p className="boot">{t("common.loading")}</p> : <main className="auth"><ErrorBanner error={bootError} onRetry={load} /></main>;
  }
  if (session.user === null) {
    if (path.startsWith("/admin/accept-invite")) return <AcceptInvite onDone={accept} />;
    if (session.setupRequired) return <Setup onDone={accept} />;
    return <SignIn onDone={accept} notice={notice} />;
  }
  const signOut = () => {
    void api("POST", "/auth/logout").finally(() => {
      setCsrfToken(null);
      setSession({ ...session, user: null, csrfToken: null });
    });
  };
  return <Shell session={session} onSignOut={signOut} />;
}
