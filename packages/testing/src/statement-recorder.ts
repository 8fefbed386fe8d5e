import type { CompiledQuery, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, UnknownRow } from "kysely";

/**
 * Records the statements a piece of code sends through Kysely, compiled as they were run.
 *
 * @example
 * ```ts
 * const recorder = new StatementRecorder((args) => db.getExecutor().compileQuery(args.node, args.queryId));
 * await listFeatureRequests(db.withPlugin(recorder), dialect, clock, query);
 * recorder.queries; // [{ sql, parameters }, …]
 * ```
 */
export class StatementRecorder implements KyselyPlugin {
  readonly queries: CompiledQuery[] = [];
  constructor(private readonly compile: (args: PluginTransformQueryArgs) => CompiledQuery) {}
  transformQuery(args: PluginTransformQueryArgs) {
    this.queries.push(this.compile(args));
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}
