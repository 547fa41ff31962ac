'use strict';
// Shared helpers: server coordinates come from the ctest fixtures
// (test/integration/CMakeLists.txt) through environment variables.
const mysqlx = require('@mysql/xdevapi');

function server(mode) {
  const uri = process.env[`MYSQLX_TEST_URI_${mode}`];
  if (!uri) throw new Error(`MYSQLX_TEST_URI_${mode} is not set: run through ctest`);
  const u = new URL(uri);
  return {
    host: u.hostname,
    port: Number(u.port),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    ca: process.env[`MYSQLX_TEST_CA_${mode}`],
  };
}

// A session over TLS verified against the fixture's CA.
function session(mode, extra = {}) {
  const s = server(mode);
  return mysqlx.getSession(Object.assign({
    host: s.host, port: s.port, user: s.user, password: s.password,
    tls: { enabled: true, ca: s.ca },
  }, extra));
}

// Each test file works in its own schema so files can run in parallel.
async function freshSchema(sess, name) {
  await sess.sql(`DROP DATABASE IF EXISTS \`${name}\``).execute();
  return sess.createSchema(name);
}

module.exports = { mysqlx, server, session, freshSchema };
