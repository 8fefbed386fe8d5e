/**
 * An `onProgress(done, total?)` callback that writes a plain line (`Exporting: 1000/5300 rows`)
 * every `every` items and at the last one, for logs and pipes.
 *
 * @example
 * ```ts
 * await backup(db, out, { onProgress: lineProgress(process.stderr, "Copying uploads", "files") });
 * ```
 */
export function lineProgress(stream: NodeJS.WritableStream, label: string, unit: string, every = 1000): (done: number, total?: number) => void {
  let printed = -1;
  return (done, total) => {
    const last = total !== undefined && done === total;
    if (done === printed || (done % every !== 0 && !last)) return;
    printed = done;
    stream.write(`${label}: ${done}${total === undefined ? "" : `/${total}`} ${unit}\n`);
  };
}
