// autocannon setupRequest for the held mixed-load benchmark, loaded by its worker thread (workers
// need a file, not a function). Each request is drawn from a fixed mix: 80% reads (personalised
// listings, searches, a request's comments, roadmap, config, changelog), 20% writes (proposals
// that stay pending review, votes, comments, feedback). With `users` (the `many` scenario) every
// write and personalised read comes from one of that many distinct users, as real traffic does;
// with `proposers` and `readers` (`heavy`), proposals come from a few callers only, who also list
// the board, so thousands of pending requests pile up for each while they read it.
"use strict";
const { appKey, requestIds, users, proposers, readers } = JSON.parse(process.env.BENCH_HELD_LOAD || "{}");
const WORDS = ["dark", "mode", "export", "sync", "offline", "widget", "calendar", "share", "import", "theme", "search", "filter"];
const SORTS = ["newest", "top", "trending"];

const pick = (list) => list[Math.floor(Math.random() * list.length)];
const json = (req, path, token, body) => ({
  ...req,
  method: "POST",
  path,
  headers: { "content-type": "application/json", ...(token === null ? {} : { "x-user-token": token }) },
  body: JSON.stringify(body),
});
const get = (req, path, token) => ({ ...req, method: "GET", path, headers: token === null ? {} : { "x-user-token": token }, body: undefined });
const user = () => `user-${Math.floor(Math.random() * users)}`;
const proposer = users === undefined ? () => pick(proposers) : user;
const reader = users === undefined ? () => pick(readers) : user;
// `heavy`: half of the personalised reads come from the callers who keep proposing.
const caller = users === undefined ? () => (Math.random() < 0.5 ? pick(proposers) : pick(readers)) : user;

/** The mix, as [kind, weight in percent, request]. */
const MIX = [
  ["list newest", 14, (req) => get(req, `/api/v1/feature-requests?appKey=${appKey}&sort=newest&limit=20`, caller())],
  ["list top", 10, (req) => get(req, `/api/v1/feature-requests?appKey=${appKey}&sort=top&limit=20`, caller())],
  ["list trending", 8, (req) => get(req, `/api/v1/feature-requests?appKey=${appKey}&sort=trending&limit=20`, caller())],
  ["list anon", 4, (req) => get(req, `/api/v1/feature-requests?appKey=${appKey}&sort=${pick(SORTS)}&limit=20`, null)],
  ["search", 10, (req) => get(req, `/api/v1/feature-requests?appKey=${appKey}&q=${pick(WORDS)}+${pick(WORDS).slice(0, 3)}&limit=20`, Math.random() < 0.5 ? caller() : null)],
  ["comments", 14, (req) => get(req, `/api/v1/feature-requests/${pick(requestIds)}/comments`, null)],
  ["columns", 6, (req) => get(req, `/api/v1/public/columns/${appKey}`, null)],
  ["versions", 4, (req) => get(req, `/api/v1/public/versions/${appKey}`, null)],
  ["config", 6, (req) => get(req, `/api/v1/public/config/${appKey}`, null)],
  ["changelog", 4, (req) => get(req, `/api/v1/public/apps/${appKey}/changelog`, null)],
  ["propose", 6, (req) => json(req, "/api/v1/feature-requests", proposer(), { appKey, title: `${pick(WORDS)} ${pick(WORDS)} proposal`, description: "Held-load proposal." })],
  ["vote", 7, (req) => json(req, `/api/v1/feature-requests/${pick(requestIds)}/vote`, users === undefined ? `voter-${Math.floor(Math.random() * 5000)}` : user(), {})],
  ["comment", 4, (req) => json(req, `/api/v1/feature-requests/${pick(requestIds)}/comments`, reader(), { body: `Held-load comment ${Math.random()}` })],
  ["feedback", 3, (req) => json(req, "/api/v1/feedback", reader(), { appKey, title: "Held-load feedback", description: "Something to look at." })],
];
const total = MIX.reduce((sum, [, weight]) => sum + weight, 0);

module.exports = function setupRequest(req) {
  let draw = Math.random() * total;
  for (const [, weight, build] of MIX) {
    draw -= weight;
    if (draw < 0) return build(req);
  }
  return MIX[0][2](req);
};
// Each kind on its own, for timing them one at a time (BENCH_HELD_PROBE).
module.exports.kinds = MIX.map(([kind, , build]) => ({ kind, build }));
