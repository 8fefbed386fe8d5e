import type { Locale } from "@tidings/client";
import { deStrings } from "./de.js";
import { enStrings } from "./en.js";
import { esStrings } from "./es.js";
import { frStrings } from "./fr.js";
import { itStrings } from "./it.js";
import { jaStrings } from "./ja.js";
import { koStrings } from "./ko.js";
import { noStrings } from "./no.js";
import { plStrings } from "./pl.js";
import { ptStrings } from "./pt.js";
import { trStrings } from "./tr.js";
import type { UiCatalog } from "./translate.js";
import { viStrings } from "./vi.js";
import { zhHansStrings } from "./zh-hans.js";
import { zhHantStrings } from "./zh-hant.js";

/** UI catalogs of every locale of the spec (`catalogs.test.ts` checks each is complete). */
export const uiCatalogs: Record<Locale, UiCatalog> = {
  en: enStrings,
  fr: frStrings,
  es: esStrings,
  de: deStrings,
  it: itStrings,
  pt: ptStrings,
  ja: jaStrings,
  "zh-Hant": zhHantStrings,
  ko: koStrings,
  pl: plStrings,
  no: noStrings,
  tr: trStrings,
  vi: viStrings,
  "zh-Hans": zhHansStrings,
};
