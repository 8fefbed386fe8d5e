/**
 * Placeholder entry point: the React layer lands with its own issue.
 */
export const REACT_VERSION = "0.1.0";
