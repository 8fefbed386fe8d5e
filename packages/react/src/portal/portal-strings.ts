import type { Locale } from "@tidings/client";

/** The words of the portal's board and tag filters, in every language Tidings has. */
export interface FilterStrings {
  /** The name of the filters' region. */
  boardsAndTags: string;
  /** The link to every board's requests. */
  allBoards: string;
  /** The tag picker's label and first option. */
  filterByTag: string;
  /** A board's address no board the visitor may see answers (unknown, or private and not theirs). */
  boardNotFound: string;
}

// Kept beside the portal until the shared screens have a board switcher and tag filter of their
// own, whose strings then live in @tidings/react-core's catalogs with the others.
const STRINGS: Record<Locale, FilterStrings> = {
  en: { boardsAndTags: "Boards and tags", allBoards: "All boards", filterByTag: "Filter by tag", boardNotFound: "This page does not exist." },
  fr: { boardsAndTags: "Tableaux et étiquettes", allBoards: "Tous les tableaux", filterByTag: "Filtrer par étiquette", boardNotFound: "Cette page n’existe pas." },
  es: { boardsAndTags: "Tableros y etiquetas", allBoards: "Todos los tableros", filterByTag: "Filtrar por etiqueta", boardNotFound: "Esta página no existe." },
  de: { boardsAndTags: "Boards und Tags", allBoards: "Alle Boards", filterByTag: "Nach Tag filtern", boardNotFound: "Diese Seite existiert nicht." },
  it: { boardsAndTags: "Bacheche e tag", allBoards: "Tutte le bacheche", filterByTag: "Filtra per tag", boardNotFound: "Questa pagina non esiste." },
  pt: { boardsAndTags: "Quadros e etiquetas", allBoards: "Todos os quadros", filterByTag: "Filtrar por etiqueta", boardNotFound: "Esta página não existe." },
  ja: { boardsAndTags: "ボードとタグ", allBoards: "すべてのボード", filterByTag: "タグで絞り込む", boardNotFound: "このページは存在しません。" },
  "zh-Hant": { boardsAndTags: "看板與標籤", allBoards: "所有看板", filterByTag: "依標籤篩選", boardNotFound: "此頁面不存在。" },
  ko: { boardsAndTags: "보드 및 태그", allBoards: "모든 보드", filterByTag: "태그로 필터링", boardNotFound: "이 페이지는 존재하지 않습니다." },
  pl: { boardsAndTags: "Tablice i tagi", allBoards: "Wszystkie tablice", filterByTag: "Filtruj według tagu", boardNotFound: "Ta strona nie istnieje." },
  no: { boardsAndTags: "Tavler og tagger", allBoards: "Alle tavler", filterByTag: "Filtrer etter tagg", boardNotFound: "Denne siden finnes ikke." },
  tr: { boardsAndTags: "Panolar ve etiketler", allBoards: "Tüm panolar", filterByTag: "Etikete göre filtrele", boardNotFound: "Bu sayfa mevcut değil." },
  vi: { boardsAndTags: "Bảng và thẻ", allBoards: "Tất cả bảng", filterByTag: "Lọc theo thẻ", boardNotFound: "Trang này không tồn tại." },
  "zh-Hans": { boardsAndTags: "看板和标签", allBoards: "所有看板", filterByTag: "按标签筛选", boardNotFound: "此页面不存在。" },
};

/** The filters' words in `locale`. */
export function filterStrings(locale: Locale): FilterStrings {
  return STRINGS[locale];
}
