// autocannon setupRequest for the vote benchmark, loaded by its worker thread (workers need a
// file, not a function): a random voter on one of the target requests.
"use strict";
const targets = JSON.parse(process.env.BENCH_VOTE_TARGETS || "[]");
module.exports = function setupRequest(req) {
  const id = targets[Math.floor(Math.random() * targets.length)];
  return {
    ...req,
    path: `/api/v1/feature-requests/${id}/vote`,
    headers: { "content-type": "application/json", "x-user-token": `voter-${Math.floor(Math.random() * 5000)}` },
    body: "{}",
  };
};
