/**
 * Placeholder entry point: the SDK core lands with its own issue.
 */
export const CLIENT_VERSION = "0.1.0";
