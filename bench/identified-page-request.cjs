// autocannon setupRequest for the identified-users page benchmark, loaded by its worker thread
// (workers need a file, not a function): each request comes from the next of many distinct
// users, each identified by the hash the host backend signs (HMAC-SHA256 of the token with the
// app's signing secret), rotating over one board's personalised page.
"use strict";
const { createHmac } = require("node:crypto");
const { path, secret, users, prefix } = JSON.parse(process.env.BENCH_IDENTIFIED_PAGE || "{}");
// Signed up front, so the load generator spends its time sending, not hashing.
const signed = Array.from({ length: users }, (_, i) => {
  const token = `${prefix}-${i}`;
  return { token, hash: createHmac("sha256", secret).update(token, "utf8").digest("hex") };
});
let next = Math.floor(Math.random() * users);
module.exports = function setupRequest(req) {
  const user = signed[next++ % users];
  return { ...req, path, headers: { "x-user-token": user.token, "x-user-hash": user.hash } };
};
