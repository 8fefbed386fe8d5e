import type { ImportFormat } from "./import-format.js";
import type { Importer } from "./import-records.js";
import { ImportWriter } from "./import-writer.js";
import { statusColumns } from "./status-columns.js";

/**
 * A format whose importer reads records (requests, comments, votes) for {@link ImportWriter}.
 *
 * @example
 * ```ts
 * IMPORT_FORMATS.csv = recordsFormat("a CSV of requests", csvImporter);
 * ```
 */
export function recordsFormat(summary: string, importer: Importer): ImportFormat {
  return {
    summary,
    async open(path, options) {
      const source = await importer(path, { columns: options.columns });
      return async (ctx) => {
        const statuses = await statusColumns(ctx.trx, ctx.app.id, ctx.options.statusMap);
        const unmapped = new Set<string>();
        const writer = await ImportWriter.open(ctx.trx, ctx.dialect, ctx.clock, {
          appId: ctx.app.id,
          source: ctx.options.format,
          keepEmails: ctx.options.keepEmails,
          boards: { target: ctx.options.board, map: ctx.options.boardMap },
          tagMap: ctx.options.tagMap,
          fieldKeys: source.fieldKeys ?? [],
          onNote: (message) => ctx.progress.note(message),
          resolveStatus: (status) => {
            const target = statuses.resolve(status);
            if (!target.known && status !== null && !unmapped.has(status)) {
              unmapped.add(status);
              ctx.progress.note(`status "${status}" is not mapped to a column: those requests go to the review column (map it with --status-map)`);
            }
            return target;
          },
          onIssue: (at, message) => ctx.issue(at, message),
        });
        let bytes = 0;
        let rows = 0;
        const show = () =>
          ctx.progress.update(bytes, {
            requests: writer.counts.requests + writer.counts.requestsExisting,
            comments: writer.counts.comments + writer.counts.commentsExisting,
            votes: writer.counts.votes + writer.counts.votesExisting,
          });
        ctx.progress.start(source.totalBytes);
        for await (const record of source.records((n) => {
          bytes = n;
        })) {
          if (record.kind === "issue") ctx.issue(record.at, record.message);
          else if (record.kind === "request") await writer.request(record);
          else if (record.kind === "comment") await writer.comment(record);
          else await writer.vote(record);
          if (++rows % 500 === 0) show();
        }
        const counts = await writer.finish();
        bytes = source.totalBytes;
        show();
        return { counts };
      };
    },
  };
}
