// autocannon setupRequest for the write benchmarks, loaded by its worker thread (workers need a
// file, not a function): a comment on one of the target requests, or a proposal on the app, each
// from one of 5,000 callers.
"use strict";
const { kind, targets, appKey } = JSON.parse(process.env.BENCH_WRITE || "{}");
let n = 0;
module.exports = function setupRequest(req) {
  const token = `writer-${Math.floor(Math.random() * 5000)}`;
  const headers = { "content-type": "application/json", "x-user-token": token };
  n++;
  if (kind === "comment") {
    const id = targets[Math.floor(Math.random() * targets.length)];
    return { ...req, method: "POST", path: `/api/v1/feature-requests/${id}/comments`, headers, body: JSON.stringify({ body: `Comment ${n} from ${token}` }) };
  }
  return { ...req, method: "POST", path: "/api/v1/feature-requests", headers, body: JSON.stringify({ appKey, title: `Proposal ${n} from ${token}`, description: "Please." }) };
};
