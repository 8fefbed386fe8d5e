// Every pack at once (`@tidings/react-core/locales`); a Metro app imports `./<code>.js` ones instead.
export { allLocales } from "./all.js";
export { en } from "./en.js";
export { fr } from "./fr.js";
export { es } from "./es.js";
export { de } from "./de.js";
export { it } from "./it.js";
export { pt } from "./pt.js";
export { ja } from "./ja.js";
export { zhHant } from "./zh-hant.js";
export { ko } from "./ko.js";
export { pl } from "./pl.js";
export { no } from "./no.js";
export { tr } from "./tr.js";
export { vi } from "./vi.js";
export { zhHans } from "./zh-hans.js";
