// The operations of the scale benchmark (bench/src/scale.ts), one request each: loaded by
// autocannon's worker thread as a setupRequest (workers need a file, not a function) and by the
// benchmark itself for its sequential latency samples, so both send the same requests. Reads
// and writes vary from one request to the next: searches are distinct (never answered from a
// cache), votes come from many voters on requests all over the board.
"use strict";
const WORDS = ["dark", "mode", "export", "sync", "offline", "widget", "calendar", "share", "import", "theme", "search", "filter", "reminder", "backup", "watch"];

const pick = (list) => list[Math.floor(Math.random() * list.length)];
const n = (max) => Math.floor(Math.random() * max);
const get = (path, token) => ({ method: "GET", path, headers: token === null ? {} : { "x-user-token": token }, body: undefined });
const post = (path, token, body) => ({ method: "POST", path, headers: { "content-type": "application/json", "x-user-token": token }, body: JSON.stringify(body) });

/** Operation name → the next request, for a target `{ appKey, ids, viewer }`. */
const OPERATIONS = {
  "anonymous page": (t) => get(`/api/v1/feature-requests?appKey=${t.appKey}&limit=50`, null),
  "personalised page": (t) => get(`/api/v1/feature-requests?appKey=${t.appKey}&limit=50`, t.viewer),
  search: (t) => get(`/api/v1/feature-requests?appKey=${t.appKey}&q=${pick(WORDS)}+${pick(WORDS).slice(0, 3)}+${n(1000)}&limit=50`, `searcher-${n(50)}`),
  "similar requests": (t) => get(`/api/v1/feature-requests/similar?appKey=${t.appKey}&title=${pick(WORDS)}+${pick(WORDS)}+${pick(WORDS).slice(0, 2 + n(3))}`, `writer-${n(1000)}`),
  vote: (t) => post(`/api/v1/feature-requests/${pick(t.ids)}/vote`, `voter-${n(20000)}`, {}),
  propose: (t) => post("/api/v1/feature-requests", `proposer-${n(1e9)}`, { appKey: t.appKey, title: `${pick(WORDS)} ${pick(WORDS)} proposal ${n(1e6)}`, description: "Proposed under load." }),
  comment: (t) => post(`/api/v1/feature-requests/${pick(t.ids)}/comments`, `commenter-${n(1000)}`, { body: `Comment ${n(1e9)}: we need this too.` }),
  "request detail": (t) => get(`/api/v1/feature-requests/${pick(t.ids)}`, t.viewer),
  // The roadmap's first read: the top 200 (and the columns, cached per app).
  roadmap: (t) => get(`/api/v1/feature-requests?appKey=${t.appKey}&sort=top&limit=200`, t.viewer),
  changelog: (t) => get(`/api/v1/public/apps/${t.appKey}/changelog`, null),
  config: (t) => get(`/api/v1/public/config/${t.appKey}`, null),
};

/** The next request of operation `op` on target `t`. */
function build(op, t) {
  const make = OPERATIONS[op];
  if (make === undefined) throw new Error(`unknown operation: ${op}`);
  return make(t);
}

const target = process.env.BENCH_SCALE_TARGET ? JSON.parse(process.env.BENCH_SCALE_TARGET) : undefined;

module.exports = function setupRequest(req) {
  return { ...req, ...build(target.op, target) };
};
module.exports.build = build;
module.exports.OPERATIONS = Object.keys(OPERATIONS);
