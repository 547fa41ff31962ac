'use strict';
// Connector/Node.js against xserverd (8.0 mode): the single-document helpers,
// modify/remove with conditions and bound values, find with sort/limit/fields.
const test = require('node:test');
const assert = require('node:assert/strict');
const { session, freshSchema } = require('./common');

async function withPeople(fn) {
  const sess = await session('80');
  try {
    const schema = await freshSchema(sess, 'conf_crud');
    const coll = await schema.createCollection('people');
    await coll.add(
      { _id: 'p1', name: 'ann', age: 31 },
      { _id: 'p2', name: 'bob', age: 17 },
      { _id: 'p3', name: 'cid', age: 45 },
      { _id: 'p4', name: 'dee', age: 22 },
    ).execute();
    await fn(coll, sess);
  } finally {
    await sess.close();
  }
}

test('getOne, replaceOne, addOrReplaceOne, removeOne', async () => {
  await withPeople(async (coll) => {
    assert.equal((await coll.getOne('p1')).name, 'ann');
    assert.equal(await coll.getOne('nope'), null);

    const rep = await coll.replaceOne('p2', { name: 'bobby', age: 18 });
    assert.equal(rep.getAffectedItemsCount(), 1);
    const p2 = await coll.getOne('p2');
    assert.deepEqual([p2._id, p2.name, p2.age], ['p2', 'bobby', 18]);

    const upd = await coll.addOrReplaceOne('p3', { name: 'cyd' });
    assert.equal(upd.getAffectedItemsCount(), 2, 'a replace counts 2, as ON DUPLICATE KEY UPDATE');
    const ins = await coll.addOrReplaceOne('p9', { name: 'new' });
    assert.equal(ins.getAffectedItemsCount(), 1);
    assert.equal((await coll.getOne('p9')).name, 'new');

    assert.equal((await coll.removeOne('p4')).getAffectedItemsCount(), 1);
    assert.equal(await coll.getOne('p4'), null);
  });
});

test('modify and remove with conditions and bound values', async () => {
  await withPeople(async (coll) => {
    const mod = await coll.modify('age >= :min').bind('min', 30)
      .set('senior', true).unset('age').execute();
    assert.equal(mod.getAffectedItemsCount(), 2);
    const seniors = (await coll.find('senior = true').sort('name').execute()).fetchAll();
    assert.deepEqual(seniors.map((d) => d.name), ['ann', 'cid']);
    assert.ok(seniors.every((d) => d.age === undefined));

    const rem = await coll.remove('name IN (:a, :b)').bind('a', 'bob').bind('b', 'dee').execute();
    assert.equal(rem.getAffectedItemsCount(), 2);
    assert.equal((await coll.find().execute()).fetchAll().length, 2);
  });
});

test('find with sort, limit, offset and projection', async () => {
  await withPeople(async (coll) => {
    const docs = (await coll.find('age > :a').bind('a', 18)
      .fields('name AS who', 'age * 2 AS twice')
      .sort('age DESC').limit(2).offset(1).execute()).fetchAll();
    assert.deepEqual(docs, [{ who: 'ann', twice: 62 }, { who: 'dee', twice: 44 }]);
  });
});
