import type { Locale } from "@tidings/client";
import { deStrings } from "./de.js";
import { enStrings } from "./en.js";
import { esStrings } from "./es.js";
import { frStrings } from "./fr.js";
import type { UiCatalog } from "./translate.js";

/**
 * UI catalogs by locale. Locales without a catalog of their own yet show English UI text (the
 * SDK's error messages are translated for every built-in locale).
 */
export const uiCatalogs: Partial<Record<Locale, UiCatalog>> = { en: enStrings, fr: frStrings, de: deStrings, es: esStrings };
