import type { LocalePack } from "../i18n/locale-pack.js";
import { en } from "./en.js";
import { fr } from "./fr.js";
import { es } from "./es.js";
import { de } from "./de.js";
import { it } from "./it.js";
import { pt } from "./pt.js";
import { ja } from "./ja.js";
import { zhHant } from "./zh-hant.js";
import { ko } from "./ko.js";
import { pl } from "./pl.js";
import { no } from "./no.js";
import { tr } from "./tr.js";
import { vi } from "./vi.js";
import { zhHans } from "./zh-hans.js";

/**
 * Every language Tidings ships, English first: for hosts that offer them all, such as the web
 * portal. An app that bundles with Metro should import only the packs it offers
 * (`@tidings/react-core/locales/<code>`), since Metro keeps every imported module.
 *
 * @example
 * ```tsx
 * import { allLocales } from "@tidings/react-core/locales";
 * <TidingsProvider client={client} locales={allLocales} locale="auto" />
 * ```
 */
export const allLocales: readonly LocalePack[] = [en, fr, es, de, it, pt, ja, zhHant, ko, pl, no, tr, vi, zhHans];
