// `npm run lint:cycles` (part of `npm run lint`, so of `npm test`): fails on an import circle.
// dependency-cruiser reads every import (type-only ones too) of the workspace's TypeScript and
// resolves it, `.js` specifiers to their `.ts` sources and `@tidings/*` to the packages' sources.
// Two rules, neither with exceptions:
// - no module imports itself through others (dependency-cruiser's `no-circular`);
// - no two areas import each other, directly or through other areas. An area is a package
//   (`packages/<name>`, `e2e`, `bench`, `scripts`) or, inside the server, a top-level folder of
//   `packages/server/src` (`apps`, `intake`, …). The files at the root of `packages/server/src`
//   belong to no area: they are the composition root (app.ts, serve.ts, cli.ts, background-jobs.ts)
//   and the shared kernel every area may import (context.ts, config.ts, clock.ts, ids.ts, …).
//   Tests and test kits (`*.test.*`, `test-kit.*`) are left out: a test may import whatever it
//   exercises, and only tests import them.
// Exits 1 with each circle and the imports that close it.
import fs from "node:fs";
import path from "node:path";
import process from "node:process";
import { URL, fileURLToPath } from "node:url";
import { cruise } from "dependency-cruiser";

const TEST_CODE = /(\.test\.(ts|tsx|mjs)|(^|\/)test-kit\.ts)$/;

/** The area of a module (a path relative to the root), or null for the server's root files. */
export function areaOf(modulePath) {
  const server = /^packages\/server\/src\/([^/]+)(\/)?/.exec(modulePath);
  if (server) return server[2] === "/" ? `server/${server[1]}` : null;
  const pkg = /^packages\/([^/]+)\//.exec(modulePath);
  if (pkg) return pkg[1];
  const top = /^([^/]+)\//.exec(modulePath);
  return top ? top[1] : null;
}

/**
 * `@tidings/<name>` and its subpaths, resolved to the package's sources (`src/`) rather than to
 * the build its `exports` name, so the check needs no build and sees what the sources import.
 */
function workspaceAliases(root) {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const alias = {};
  for (const workspace of manifest.workspaces ?? []) {
    const file = path.join(root, workspace, "package.json");
    if (!fs.existsSync(file)) continue;
    const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
    const src = path.join(root, workspace, "src");
    if (!fs.existsSync(src)) continue;
    // Exact subpaths whose file does not mirror the subpath (`./testing` → `testing/hostile-text`).
    for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
      const built = typeof target === "string" ? target : target?.default;
      const source = typeof built === "string" ? /^\.\/dist\/(?:esm\/)?(.+)\.js$/.exec(built)?.[1] : undefined;
      if (subpath === "." || subpath.includes("*") || source === undefined) continue;
      alias[`${pkg.name}${subpath.slice(1)}$`] = path.join(src, `${source}.ts`);
    }
    alias[pkg.name] = src;
  }
  return alias;
}

/** Strongly connected components of more than one node (Tarjan), each sorted. */
function circles(edges) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    index.set(node, index.size);
    low.set(node, index.get(node));
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), index.get(next)));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

/**
 * Cruises `roots` (paths relative to `root`) and returns the module circles and the area circles,
 * each area circle with the imports between its areas (`from` area, `to` area, the imports).
 */
export async function importCycles(root, roots) {
  const result = await cruise(
    roots,
    {
      baseDir: root,
      exclude: { path: "(^|/)(node_modules|dist|lib|coverage|artifacts)/" },
      doNotFollow: { path: "node_modules" },
      tsPreCompilationDeps: true,
      ruleSet: { forbidden: [{ name: "no-circular", severity: "error", from: {}, to: { circular: true } }] },
      validate: true,
    },
    { alias: workspaceAliases(root), extensions: [".ts", ".tsx", ".mjs", ".js", ".cjs", ".d.ts", ".json"] },
  );
  const { modules, summary } = result.output;
  const moduleCircles = summary.violations.filter((v) => v.rule.name === "no-circular").map((v) => [v.from, ...v.cycle.map((step) => step.name)]);

  const edges = new Map();
  let imports = 0;
  for (const module of modules) {
    if (TEST_CODE.test(module.source)) continue;
    const from = areaOf(module.source);
    for (const dependency of module.dependencies) {
      imports++;
      const to = areaOf(dependency.resolved);
      if (from === null || to === null || from === to || dependency.resolved.includes("node_modules/") || TEST_CODE.test(dependency.resolved)) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      const between = edges.get(from);
      if (!between.has(to)) between.set(to, []);
      between.get(to).push(`${module.source} → ${dependency.resolved}`);
    }
  }
  const areaCircles = circles(edges).map((areas) => ({
    areas,
    imports: areas.flatMap((from) => [...(edges.get(from) ?? [])].filter(([to]) => areas.includes(to)).map(([to, list]) => ({ from, to, imports: list }))),
  }));
  return { modules: modules.length, imports, moduleCircles, areaCircles };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const found = await importCycles(root, ["packages", "e2e", "bench", "scripts"]);
  for (const circle of found.moduleCircles) process.stderr.write(`module circle: ${circle.join(" → ")}\n`);
  for (const { areas, imports } of found.areaCircles) {
    const lines = imports.map(({ from, to, imports: list }) => `  ${from} → ${to}: ${list[0]}${list.length > 1 ? ` (+${list.length - 1} more)` : ""}\n`);
    process.stderr.write(`area circle: ${areas.join(", ")} import each other:\n${lines.join("")}`);
  }
  const count = found.moduleCircles.length + found.areaCircles.length;
  if (count > 0) {
    process.stderr.write("lint:cycles: move what both sides need below them (see docs/architecture.md), or invert the import\n");
  }
  process.stdout.write(
    `lint:cycles: ${found.modules} modules, ${found.imports} imports; ${found.moduleCircles.length} module circles, ${found.areaCircles.length} area circles\n`,
  );
  process.exitCode = count === 0 ? 0 : 1;
}
