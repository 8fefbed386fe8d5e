import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";

const packages = fileURLToPath(new URL("../../../packages/", import.meta.url));

/** The workspace packages resolve to their sources, so the gallery never shows a stale build. */
const SOURCES: Record<string, string> = {
  "@tidings/client": `${packages}client/src/index.ts`,
  "@tidings/client/locales": `${packages}client/src/locales/index.ts`,
  "@tidings/protocol": `${packages}protocol/src/index.ts`,
  "@tidings/react-core": `${packages}react-core/src/index.ts`,
};

const workspaceSources: Plugin = {
  name: "workspace-sources",
  setup(b) {
    b.onResolve({ filter: /^@tidings\// }, (args) => (SOURCES[args.path] === undefined ? undefined : { path: SOURCES[args.path]! }));
  },
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tidings React Native gallery</title>
<style>html, body, #root { height: 100%; margin: 0; } #root { display: flex; }</style>
</head>
<body><div id="root"></div><script type="module" src="/gallery.js"></script></body>
</html>`;

/**
 * Bundles packages/react-native/src/test-support/gallery.tsx for the browser: `react-native` is
 * react-native-web, platform files (`.web.js`) first, the workspace packages from source.
 */
export async function buildGallery(): Promise<string> {
  const result = await build({
    entryPoints: [`${packages}react-native/src/test-support/gallery.tsx`],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: ["chrome120"],
    jsx: "automatic",
    alias: { "react-native": "react-native-web" },
    resolveExtensions: [".web.tsx", ".web.ts", ".web.js", ".tsx", ".ts", ".js", ".json"],
    define: { "process.env.NODE_ENV": '"development"', __DEV__: "true", global: "globalThis" },
    plugins: [workspaceSources],
    // device-locales.ts requires the optional locale libraries inside try: absent here, as in an app without them.
    logOverride: { "require-resolve-not-external": "silent" },
    logLevel: "error",
  });
  return result.outputFiles[0]!.text;
}

/** Serves the gallery page and bundle on a free loopback port. */
export async function serveGallery(): Promise<{ url: string; close: () => Promise<void> }> {
  const script = await buildGallery();
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://gallery").pathname;
    if (path === "/gallery.js") {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" });
      res.end(script);
    } else if (path === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(PAGE);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
