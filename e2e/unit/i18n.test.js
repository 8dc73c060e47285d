// Both languages are complete and consistent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { en, zh, translate, interpolate, initialLanguage, plural } from '../../web-client/js/i18n.js';
// The games' own words (games/NAME/strings.js) join the tables when the registry loads, as on the page.
import '../../web-client/js/games/index.js';

const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('every key exists in English and Chinese', () => {
  assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
});

test('translations use the same placeholders and none is empty', () => {
  for (const k of Object.keys(en)) {
    assert.deepEqual(placeholders(zh[k]), placeholders(en[k]), k);
    assert.ok(en[k].trim() && zh[k].trim(), k);
  }
});

test('every key the code asks for exists', () => {
  const root = new URL('../../web-client/', import.meta.url).pathname;
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (/\.(js|html)$/.test(e.name)) files.push(join(dir, e.name));
    }
  };
  walk(root);
  const missing = [];
  for (const f of files) {
    const src = readFileSync(f, 'utf8');
    for (const m of src.matchAll(/\bt\('([a-z_]+\.[a-z_0-9.]+)'/g)) if (!(m[1] in en)) missing.push(`${f}: ${m[1]}`);
    for (const m of src.matchAll(/data-(?:i18n|l)="([a-z_]+\.[a-z_0-9.]+)"/g)) if (!(m[1] in en)) missing.push(`${f}: ${m[1]}`);
    for (const m of src.matchAll(/'data-l': '([a-z_]+\.[a-z_0-9.]+)'/g)) if (!(m[1] in en)) missing.push(`${f}: ${m[1]}`);
  }
  assert.deepEqual(missing, []);
});

test('codes the server sends have words in both languages', () => {
  const codes = ['five', 'forbidden_move', 'forbidden_claimed', 'resign', 'timeout', 'abandoned', 'board_full', 'no_legal_point', 'aborted'];
  for (const c of codes) assert.ok(`reason.${c}` in en, c);
  for (const k of ['double_three', 'double_four', 'overline']) assert.ok(`kind.${k}` in en, k);
  for (const o of ['none', 'swap_after_three', 'swap_after_three_fifth_two_options']) assert.ok(`opening.${o}` in en, o);
});

test('placeholders are filled and unknown ones stay visible', () => {
  assert.equal(translate('zh', 'room.spectators', { n: 3 }), '3 人观战');
  assert.equal(translate('en', 'room.spectators', { n: 3 }), '3 watching');
  assert.equal(interpolate('{a} and {b}', { a: 1 }), '1 and {b}');
  assert.equal(translate('en', 'no.such.key'), 'no.such.key');
});

test('the language is the remembered one, else Chinese for Chinese browsers, else English', () => {
  assert.equal(initialLanguage('zh', ['en-US']), 'zh');
  assert.equal(initialLanguage(null, ['zh-CN', 'en']), 'zh');
  assert.equal(initialLanguage('xx', ['de']), 'en');
});

// Issue #14 item 20: "1 players online".
test('counts follow each language\'s plural rules', () => {
  assert.equal(plural('en', 'lobby.online_now', 1), '1 player online');
  assert.equal(plural('en', 'lobby.online_now', 0), '0 players online');
  assert.equal(plural('en', 'lobby.online_now', 2), '2 players online');
  assert.equal(plural('zh', 'lobby.online_now', 1), '1 位玩家在线');
  assert.equal(plural('zh', 'lobby.online_now', 2), '2 位玩家在线');
});
