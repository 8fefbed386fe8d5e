import { useState } from "react";

/**
 * The offset of a paginated list (for a {@link Pager}). `refilter(set)` wraps a filter's setter
 * so that changing the filter goes back to the first page.
 */
export function useOffset() {
  const [offset, setOffset] = useState(0);
  const refilter =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setOffset(0);
    };
  return { offset, setOffset, refilter };
}
