// Rewrites docs/settings.md from packages/server/src/config.ts (`npm run docs:settings`).
import fs from "node:fs";
import { renderSettingsReference, SETTINGS_DOC } from "./settings-reference.mjs";

fs.writeFileSync(SETTINGS_DOC, renderSettingsReference());
