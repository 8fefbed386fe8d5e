import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.js";
import { ErrorBoundary } from "./components/ErrorBoundary.js";
import { t } from "./i18n/t.js";

const root = document.getElementById("root");
if (root !== null) {
  createRoot(root).render(
    <StrictMode>
      {/* The last line of defence: pages have their own boundaries, this one catches the frame around them. */}
      <ErrorBoundary back={{ label: t("boundary.reload"), go: () => window.location.reload() }}>
        <App />
      </ErrorBoundary>
    </StrictMode>,
  );
}
