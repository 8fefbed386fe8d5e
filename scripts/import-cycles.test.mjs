import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { areaOf, importCycles } from "./import-cycles.mjs";

/** A workspace in a scratch folder: `files` maps a path to its content. */
function workspace(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "import-cycles-"));
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), typeof content === "string" ? content : JSON.stringify(content));
  }
  return root;
}

describe("areaOf", () => {
  it("names a server folder, a package, or nothing for the server's root files", () => {
    expect(areaOf("packages/server/src/apps/apps.ts")).toBe("server/apps");
    expect(areaOf("packages/server/src/app.ts")).toBeNull();
    expect(areaOf("packages/react-core/src/hooks/use-roadmap.ts")).toBe("react-core");
    expect(areaOf("e2e/src/react/sso.test.ts")).toBe("e2e");
  });
});

describe("lint:cycles", () => {
  let root;
  let found;
  beforeAll(async () => {
    root = workspace({
      "package.json": { private: true, workspaces: ["packages/one", "packages/two", "packages/server"] },
      "packages/one/package.json": { name: "@tidings/one", exports: { ".": { default: "./dist/index.js" } } },
      "packages/two/package.json": { name: "@tidings/two", exports: { ".": { default: "./dist/index.js" } } },
      "packages/server/package.json": { name: "@tidings/server" },
      // Two packages that import each other by name.
      "packages/one/src/index.ts": 'import { two } from "@tidings/two";\nexport const one = () => two;\n',
      "packages/two/src/index.ts": 'import type { one } from "@tidings/one";\nexport const two: typeof one | null = null;\n',
      // apps and intake import each other with no module circle (a type import counts).
      "packages/server/src/apps/apps.ts": 'import { verify } from "../intake/verification.js";\nexport interface AppRow { id: string }\nexport const check = verify;\n',
      "packages/server/src/intake/verification.ts": 'import type { AppRow } from "../apps/rows.js";\nexport const verify = (app: AppRow) => app.id;\n',
      "packages/server/src/apps/rows.ts": "export interface AppRow { id: string }\n",
      // roadmap imports apps; apps reaches roadmap only through a root file, a test kit and a test.
      "packages/server/src/roadmap/board.ts": 'import type { AppRow } from "../apps/rows.js";\nexport type Board = { app: AppRow };\n',
      "packages/server/src/context.ts": 'import type { Board } from "./roadmap/board.js";\nexport type Context = { board: Board };\n',
      "packages/server/src/apps/public.ts": 'import type { Context } from "../context.js";\nexport const appOf = (ctx: Context) => ctx.board.app;\n',
      "packages/server/src/apps/test-kit.ts": 'import type { Board } from "../roadmap/board.js";\nexport const kit = (board: Board) => board;\n',
      "packages/server/src/apps/public.test.ts": 'import type { Board } from "../roadmap/board.js";\nexport const used = (board: Board) => board;\n',
      // Two modules of one area that import each other.
      "packages/server/src/jobs/queue.ts": 'import { run } from "./runner.js";\nexport const queue = () => run;\n',
      "packages/server/src/jobs/runner.ts": 'import { queue } from "./queue.js";\nexport const run = () => queue;\n',
    });
    found = await importCycles(root, ["packages"]);
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it("reports two areas that import each other, naming the imports", () => {
    const circle = found.areaCircles.find(({ areas }) => areas.includes("server/apps"));
    expect(circle?.areas).toEqual(["server/apps", "server/intake"]);
    expect(circle?.imports).toContainEqual({
      from: "server/intake",
      to: "server/apps",
      imports: ["packages/server/src/intake/verification.ts → packages/server/src/apps/rows.ts"],
    });
  });

  it("reports two packages that import each other by name", () => {
    expect(found.areaCircles.map(({ areas }) => areas)).toContainEqual(["one", "two"]);
  });

  it("leaves out the server's root files, tests and test kits", () => {
    expect(found.areaCircles.flatMap(({ areas }) => areas)).not.toContain("server/roadmap");
  });

  it("reports modules that import each other inside one area", () => {
    expect(found.moduleCircles).toContainEqual(["packages/server/src/jobs/queue.ts", "packages/server/src/jobs/runner.ts", "packages/server/src/jobs/queue.ts"]);
    expect(found.areaCircles).toHaveLength(2);
  });
});
