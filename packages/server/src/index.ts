export { buildApp, type BuildOptions } from "./app.js";
export { loadConfig, ConfigError, type Config } from "./config.js";
export { openDatabase, migrateToLatest, type Db, type DialectName } from "./db/database.js";
export { MemoryCache, type SharedCache } from "./cache/shared-cache.js";
export { systemClock, type Clock } from "./clock.js";
export { userHash } from "./users/identity.js";
export { DEMO_APP_KEY } from "./demo/seed-demo.js";
export { startServer, type RunningServer } from "./serve.js";
