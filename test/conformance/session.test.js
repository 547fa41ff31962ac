'use strict';
// Connector/Node.js against xserverd: handshake, collections, add() and the
// generated ids, duplicates, SQL results, pooling (8.0 mode), and 5.7 mode.
const test = require('node:test');
const assert = require('node:assert/strict');
const { mysqlx, server, session, freshSchema } = require('./common');

test('8.0: TLS is negotiated and the server certificate verifies against the CA', async () => {
  const sess = await session('80');
  try {
    assert.equal(sess.inspect().tls, true);
  } finally {
    await sess.close();
  }
});

test('8.0: a CA that did not sign the server certificate is refused', async () => {
  const s = server('80');
  await assert.rejects(mysqlx.getSession({
    host: s.host, port: s.port, user: s.user, password: s.password,
    tls: { enabled: true, ca: '/etc/ssl/certs/ca-certificates.crt' },
  }));
});

test('8.0: add() reports exactly the ids the server stored, in order', async () => {
  const sess = await session('80');
  try {
    const schema = await freshSchema(sess, 'conf_add');
    const coll = await schema.createCollection('docs');
    const res = await coll.add(
      { n: 1 }, { _id: 'mine-1', n: 2 }, { n: 3 }, { n: 4, nested: { _id: 'inner' } },
    ).execute();
    const ids = res.getGeneratedIds();
    assert.equal(res.getAffectedItemsCount(), 4);
    assert.equal(ids.length, 3);
    for (const id of ids) assert.match(id, /^[0-9a-f]{28}$/);
    const rows = await sess.sql(
      "SELECT JSON_UNQUOTE(JSON_EXTRACT(doc,'$._id')), JSON_EXTRACT(doc,'$.n') " +
      'FROM conf_add.docs ORDER BY 2').execute();
    const stored = rows.fetchAll().map((r) => r[0]);
    assert.deepEqual(stored, [ids[0], 'mine-1', ids[1], ids[2]]);
    assert.ok(ids[0] < ids[1] && ids[1] < ids[2], 'server ids increase');

    const only = await coll.add({ _id: 'mine-2' }).execute();
    assert.deepEqual(only.getGeneratedIds(), []);
  } finally {
    await sess.close();
  }
});

test('8.0: a duplicate _id fails with 5116 and inserts nothing', async () => {
  const sess = await session('80');
  try {
    const schema = await freshSchema(sess, 'conf_dup');
    const coll = await schema.createCollection('docs');
    await coll.add({ _id: 'a' }).execute();
    await assert.rejects(coll.add({ _id: 'b' }, { _id: 'a' }).execute(),
      (err) => err.info && err.info.code === 5116);
    const count = await sess.sql('SELECT COUNT(*) FROM conf_dup.docs').execute();
    assert.equal(Number(count.fetchOne()[0]), 1);
  } finally {
    await sess.close();
  }
});

test('8.0: sql() returns typed columns', async () => {
  const sess = await session('80');
  try {
    const res = await sess.sql(
      "SELECT 1 AS i, -5 AS neg, 2.5 AS d, 'héllo' AS s, CAST(NULL AS CHAR) AS nul, " +
      "CAST('2024-01-02 03:04:05' AS DATETIME) AS dt").execute();
    const cols = res.getColumns().map((c) => c.getColumnLabel());
    assert.deepEqual(cols, ['i', 'neg', 'd', 's', 'nul', 'dt']);
    const row = res.fetchOne();
    assert.equal(Number(row[0]), 1);
    assert.equal(Number(row[1]), -5);
    assert.equal(Number(row[2]), 2.5);
    assert.equal(row[3], 'héllo');
    assert.equal(row[4], null);
    assert.equal(new Date(row[5]).getUTCFullYear(), 2024);
  } finally {
    await sess.close();
  }
});

test('8.0: a pooled client reuses its sessions', async () => {
  const s = server('80');
  const client = mysqlx.getClient(
    { host: s.host, port: s.port, user: s.user, password: s.password, tls: { enabled: true, ca: s.ca } },
    { pooling: { enabled: true, maxSize: 1 } });
  try {
    const first = await client.getSession();
    const id1 = (await first.sql('SELECT CONNECTION_ID()').execute()).fetchOne()[0];
    await first.sql('SET @marker = 42').execute();
    await first.close();
    const second = await client.getSession();
    const id2 = (await second.sql('SELECT CONNECTION_ID()').execute()).fetchOne()[0];
    const marker = (await second.sql('SELECT @marker').execute()).fetchOne()[0];
    assert.equal(Number(id2), Number(id1), 'the same server session is reused');
    assert.equal(marker, null, 'a reused session is reset');
    await second.close();
  } finally {
    await client.close();
  }
});

test('5.7: adding a document without _id fails with 5115', async () => {
  const sess = await session('57');
  try {
    const schema = await freshSchema(sess, 'conf_57');
    const coll = await schema.createCollection('docs');
    await assert.rejects(coll.add({ n: 1 }).execute(), (err) => err.info && err.info.code === 5115);
    const ok = await coll.add({ _id: 'given', n: 2 }).execute();
    assert.deepEqual(ok.getGeneratedIds(), []);
    const count = await sess.sql('SELECT COUNT(*) FROM conf_57.docs').execute();
    assert.equal(Number(count.fetchOne()[0]), 1);
  } finally {
    await sess.close();
  }
});
