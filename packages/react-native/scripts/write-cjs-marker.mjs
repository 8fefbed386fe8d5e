// tsc emits CommonJS into dist/cjs with .js names; this marker makes Node read them as CommonJS
// inside a "type": "module" package.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "dist", "cjs");
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, "package.json"), '{ "type": "commonjs" }\n');
