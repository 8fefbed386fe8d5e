import type { Locale } from "@tidings/client";

/** The words of the portal's board and tag filters, in every language Tidings has. */
export interface FilterStrings {
  /** The name of the filters' region. */
  boardsAndTags: string;
  /** The link to every board's requests. */
  allBoards: string;
  /** The tag picker's label and first option. */
  filterByTag: string;
}

// Kept beside the portal until the shared screens have a board switcher and tag filter of their
// own, whose strings then live in @tidings/react-core's catalogs with the others.
const STRINGS: Record<Locale, FilterStrings> = {
  en: { boardsAndTags: "Boards and tags", allBoards: "All boards", filterByTag: "Filter by tag" },
  fr: { boardsAndTags: "Tableaux et étiquettes", allBoards: "Tous les tableaux", filterByTag: "Filtrer par étiquette" },
  es: { boardsAndTags: "Tableros y etiquetas", allBoards: "Todos los tableros", filterByTag: "Filtrar por etiqueta" },
  de: { boardsAndTags: "Boards und Tags", allBoards: "Alle Boards", filterByTag: "Nach Tag filtern" },
  it: { boardsAndTags: "Bacheche e tag", allBoards: "Tutte le bacheche", filterByTag: "Filtra per tag" },
  pt: { boardsAndTags: "Quadros e etiquetas", allBoards: "Todos os quadros", filterByTag: "Filtrar por etiqueta" },
  ja: { boardsAndTags: "ボードとタグ", allBoards: "すべてのボード", filterByTag: "タグで絞り込む" },
  "zh-Hant": { boardsAndTags: "看板與標籤", allBoards: "所有看板", filterByTag: "依標籤篩選" },
  ko: { boardsAndTags: "보드 및 태그", allBoards: "모든 보드", filterByTag: "태그로 필터링" },
  pl: { boardsAndTags: "Tablice i tagi", allBoards: "Wszystkie tablice", filterByTag: "Filtruj według tagu" },
  no: { boardsAndTags: "Tavler og tagger", allBoards: "Alle tavler", filterByTag: "Filtrer etter tagg" },
  tr: { boardsAndTags: "Panolar ve etiketler", allBoards: "Tüm panolar", filterByTag: "Etikete göre filtrele" },
  vi: { boardsAndTags: "Bảng và thẻ", allBoards: "Tất cả bảng", filterByTag: "Lọc theo thẻ" },
  "zh-Hans": { boardsAndTags: "看板和标签", allBoards: "所有看板", filterByTag: "按标签筛选" },
};

/** The filters' words in `locale`. */
export function filterStrings(locale: Locale): FilterStrings {
  return STRINGS[locale];
}
