// Issue #31: a game's words, styles, rating pools and record export are its own files and answers
// (web-client/js/games/NAME/), taken in by the registry. These check that every registered game brings them
// whole: words in both languages that the tables really hold, a style sheet that styles its board, pools with
// names, and the record page's export in its own format.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, basename } from 'node:path';
import { dictionaries, translate, addStrings } from '../../web-client/js/i18n.js';
import { GAMES, DEFAULT_GAME, loadStyles, ruleSources, pools } from '../../web-client/js/games/index.js';
import { poolOfSpec } from '../../web-client/js/seek.js';
import { downloadChoices } from '../../web-client/js/pages/record.js';

const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const members = Object.values(GAMES);

test('the registry holds the games, each under its own name', () => {
  for (const name of ['gomoku', 'othello', 'draughts']) assert.ok(name in GAMES, name);
  for (const [name, m] of Object.entries(GAMES)) assert.equal(m.name, name);
});

test("every game's own words exist in English and Chinese, with the same placeholders, and the tables hold them", () => {
  for (const m of members) {
    const { en, zh } = m.strings;
    assert.ok(Object.keys(en).length > 0, `${m.name} has words`);
    assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort(), `${m.name}: the same keys in both languages`);
    for (const k of Object.keys(en)) {
      assert.deepEqual(placeholders(zh[k]), placeholders(en[k]), `${m.name}: ${k}`);
      assert.ok(en[k].trim() && zh[k].trim(), `${m.name}: ${k} is not empty`);
      // Registered: the page's translations give the game's own words, not the key.
      assert.equal(dictionaries.en[k], en[k], `${m.name}: ${k} reached the English table`);
      assert.equal(dictionaries.zh[k], zh[k], `${m.name}: ${k} reached the Chinese table`);
    }
    for (const lang of ['en', 'zh']) assert.notEqual(translate(lang, `game.${m.name}`), `game.${m.name}`, `${m.name} has a name in ${lang}`);
  }
});

test("the words the pages ask of a game exist: its name, its pools', its export format's and its footer credit", () => {
  for (const m of members) {
    const keys = [`game.${m.name}`, m.sourceKey, ...m.pools.map((p) => `pool.${p}`)];
    if (m.exportFormat) keys.push(m.exportFormat.labelKey);
    if (m.transcriptKey) keys.push(m.transcriptKey);
    for (const k of keys) for (const lang of ['en', 'zh']) assert.ok(k in dictionaries[lang], `${m.name}: ${k} in ${lang}`);
  }
});

test("a game's words cannot take a key another part already uses, nor come in one language only", () => {
  assert.throws(() => addStrings({ en: { 'game.othello': 'Reversi' }, zh: { 'game.othello': '翻转棋' } }), /already taken/);
  assert.throws(() => addStrings({ en: { 'x.only_english': 'x' }, zh: {} }), /other keys/);
  assert.equal(translate('en', 'game.othello'), 'Othello', 'a refused table changes nothing');
});

test('the footer credits the rules of every game, in each language as it read before the words moved', () => {
  assert.equal(translate('en', 'foot.source', { rules: ruleSources() }), 'Rules: Gomoku (freestyle, standard, Renju by the RIF), Othello, international draughts (FMJD), insect chess (昆虫棋).');
});

test("every game with a board of its own has a style sheet in its folder that styles that board, linked once", () => {
  const withStyle = members.filter((m) => m.style);
  for (const name of ['othello', 'draughts']) assert.ok(withStyle.some((m) => m.name === name), `${name} brings its sheet`);
  for (const m of withStyle) {
    const file = fileURLToPath(m.style);
    assert.ok(existsSync(file), `${m.name}: ${file}`);
    assert.equal(basename(dirname(file)), m.name, `${m.name}'s sheet is in its own folder`);
    const css = readFileSync(file, 'utf8');
    assert.match(css, new RegExp(`\\.board\\.${m.name} `), `${m.name}'s sheet styles its board`);
  }
  const shared = readFileSync(new URL('../../web-client/css/app.css', import.meta.url), 'utf8');
  for (const m of withStyle) assert.doesNotMatch(shared, new RegExp(`\\.board\\.${m.name}\\b`), `${m.name}'s board rules live in one place`);

  // A document stand-in: loadStyles appends one stylesheet link per game, and a second call adds none.
  const head = [];
  const doc = {
    head: { append: (el) => head.push(el) },
    createElement: (tag) => ({ tag, dataset: {} }),
    querySelector: (sel) => head.find((el) => sel === `link[data-game-style="${el.dataset.gameStyle}"]`) || null,
  };
  const links = loadStyles(doc);
  assert.deepEqual(links.map((l) => [l.tag, l.rel, l.href, l.dataset.gameStyle]), withStyle.map((m) => ['link', 'stylesheet', m.style, m.name]));
  loadStyles(doc);
  assert.equal(head.length, withStyle.length);
});

test("a spec's rating pool is its game's answer, one of the pools the leaderboard lists", () => {
  const listed = pools();
  for (const m of members) {
    const spec = m.defaultSpec ? { game: m.defaultSpec } : m.createSpec({ rule_set: m.pools[0] });
    const pool = poolOfSpec(spec);
    assert.equal(pool, m.poolOf(spec));
    assert.ok(m.pools.includes(pool) && listed.includes(pool), `${m.name}: ${pool}`);
  }
  assert.equal(poolOfSpec(null), 'freestyle', 'a spec that names nothing is the default game with its default pool');
  assert.equal(poolOfSpec({ game: 'draughts' }), 'draughts/international', 'a row naming its game alone plays in the default variant');
  assert.equal(DEFAULT_GAME, 'gomoku');
});

test("the record's export is the game's own: Othello's move list, draughts' PDN, Gomoku's downloads", () => {
  assert.deepEqual(GAMES.othello.exportFormat, { extension: 'txt', labelKey: 'record.format_othello' });
  assert.deepEqual(GAMES.draughts.exportFormat, { extension: 'pdn', labelKey: 'record.format_draughts' });
  assert.equal(GAMES.gomoku.exportFormat, null);
  assert.equal(translate('en', 'record.export', { format: translate('en', GAMES.draughts.exportFormat.labelKey) }), translate('en', 'record.export', { format: 'PDN' }));
  assert.deepEqual(downloadChoices('d1', 'draughts'), [['text', 'd1.record.txt', 'records.text']]);
  assert.deepEqual(downloadChoices('g1', 'gomoku').map((d) => d[1]), ['g1.psq', 'g1.renlib.txt', 'g1.record.txt']);
});
