// The script-tag widget: <script src="https://feedback.example.com/widget.js" data-app-key="app_…" async></script>
// (plus `data-sso-token="<JWT>"` to sign the host's user in, see docs/sso.md)
// adds a launcher button that opens the portal in a panel. The portal runs in an iframe, so the
// host page's styles and scripts and ours never touch.
(() => {
  const script = document.currentScript as HTMLScriptElement | null;
  const appKey = script?.dataset.appKey;
  if (script === null || appKey === undefined || appKey === "") return;
  const origin = new URL(script.src, window.location.href).origin;
  const label = script.dataset.label ?? "Feedback";
  const tab = script.dataset.tab ?? "";
  const position = script.dataset.position === "left" ? "left" : "right";
  const host = document.createElement("div");
  host.setAttribute("data-tidings-widget", appKey);
  const root = host.attachShadow({ mode: "open" });
  root.innerHTML = `
<style>
  :host { all: initial; }
  button.launcher { position: fixed; bottom: 20px; ${position}: 20px; z-index: 2147483000; font: 600 15px/1 system-ui, sans-serif;
    padding: 12px 18px; border-radius: 999px; border: 0; background: #4f46e5; color: #fff; cursor: pointer; box-shadow: 0 6px 20px rgba(0,0,0,.25); }
  button.launcher:focus-visible, button.close:focus-visible { outline: 3px solid #93c5fd; outline-offset: 2px; }
  .panel { position: fixed; bottom: 80px; ${position}: 20px; z-index: 2147483001; width: min(420px, calc(100vw - 24px)); height: min(680px, calc(100vh - 110px));
    border-radius: 16px; overflow: hidden; box-shadow: 0 20px 60px rgba(0,0,0,.35); background: #fff; display: none; }
  .panel.open { display: block; }
  .close { position: absolute; top: 8px; ${position === "right" ? "right" : "left"}: 8px; z-index: 1; width: 32px; height: 32px; border-radius: 8px; border: 0;
    background: rgba(0,0,0,.06); font: 20px/1 system-ui, sans-serif; cursor: pointer; }
  iframe { width: 100%; height: 100%; border: 0; }
  @media (max-width: 480px) { .panel { inset: 0; width: 100vw; height: 100vh; border-radius: 0; } }
</style>
<button class="launcher" type="button" aria-haspopup="dialog" aria-expanded="false"></button>
<div class="panel" role="dialog" aria-modal="false" aria-label="">
  <button class="close" type="button" aria-label="Close">×</button>
</div>`;
  const launcher = root.querySelector<HTMLButtonElement>("button.launcher")!;
  const panel = root.querySelector<HTMLDivElement>(".panel")!;
  const close = root.querySelector<HTMLButtonElement>("button.close")!;
  launcher.textContent = label;
  panel.setAttribute("aria-label", label);
  let frame: HTMLIFrameElement | null = null;
  const setOpen = (open: boolean) => {
    if (open && frame === null) {
      frame = document.createElement("iframe");
      frame.title = label;
      // The SSO token rides in the fragment: never sent to the server's logs nor in Referer.
      const sso = script.dataset.ssoToken ?? "";
      const fragment = sso === "" ? (tab === "" ? "" : `#${encodeURIComponent(tab)}`) : `#${new URLSearchParams({ tab, ssoToken: sso }).toString()}`;
      frame.src = `${origin}/p/${encodeURIComponent(appKey)}?embed=1${fragment}`;
      panel.appendChild(frame);
    }
    panel.classList.toggle("open", open);
    launcher.setAttribute("aria-expanded", String(open));
    if (open) close.focus();
    else launcher.focus();
  };
  launcher.addEventListener("click", () => setOpen(!panel.classList.contains("open")));
  close.addEventListener("click", () => setOpen(false));
  root.addEventListener("keydown", (event) => {
    if ((event as KeyboardEvent).key === "Escape" && panel.classList.contains("open")) setOpen(false);
  });
  const attach = () => document.body.appendChild(host);
  if (document.body === null) document.addEventListener("DOMContentLoaded", attach);
  else attach();
})();
