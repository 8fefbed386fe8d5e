import fs from "node:fs";

/** Makes a rename or a new entry in `dir` durable (the directory's own fsync). */
export function fsyncDir(dir: string): void {
  fsyncFile(dir);
}

export function fsyncFile(file: string): void {
  const fd = fs.openSync(file, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
