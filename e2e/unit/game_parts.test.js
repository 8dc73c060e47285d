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
import { GAMES, DEFAULT_GAME, loadStyles, ruleSources, pools, colourWord } from '../../web-client/js/games/index.js';
import { parseRoute, href } from '../../web-client/js/router.js';
import { setLang } from '../../web-client/js/i18n.js';
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

// Issue #36 item 14: every game has a rules page in both languages, linked as #/rules/GAME.
test("every game's rules page has a title, a line for the landing page and the same blocks in English and Chinese", () => {
  for (const m of members.filter((g) => g.served)) {
    const { en, zh } = m.rulesText;
    for (const [lang, text] of [['en', en], ['zh', zh]]) {
      assert.ok(text.title.trim() && text.blurb.trim(), `${m.name} ${lang}: title and blurb`);
      assert.ok(text.blocks.length >= 4, `${m.name} ${lang}: rules of some length`);
    }
    // The same outline in both languages: each block of the same kind, lists of the same length, the same figures.
    const outline = (blocks) => blocks.map(([kind, a, b]) => [kind, kind === 'ul' ? a.length : kind === 'figure' ? a : kind === 'table' ? [a.length, b.length] : 1]);
    assert.deepEqual(outline(zh.blocks), outline(en.blocks), `${m.name}: the Chinese rules follow the English`);
    for (const [kind, name] of en.blocks.filter(([kind]) => kind === 'figure')) {
      assert.match(m.rulesFigure(name), /^<svg[^>]*>[\s\S]*<\/svg>$/, `${m.name} draws its ${kind} ${name}`);
    }
  }
  // Insect chess: the start board and the strength cycle, every insect on it with its glyph and its name.
  const cycle = GAMES.insect.rulesFigure('cycle');
  for (const glyph of ['蝎', '蜈', '狼', '虎', '蜂', '虱']) assert.ok(cycle.includes(glyph), glyph);
  for (const name of ['scorpion', 'centipede', 'wolf spider', 'tiger beetle', 'wasp', 'diving beetle']) assert.ok(cycle.includes(`>${name}<`), name);
  assert.equal((cycle.match(/class="beats/g) || []).length, 6, 'six arrows close the circle');
  assert.equal((cycle.match(/class="beats back"/g) || []).length, 1, 'the diving beetle\'s arrow to the scorpion is marked');
  assert.match(GAMES.insect.rulesFigure('board'), /data-game="insect"/);
  assert.equal(GAMES.insect.rulesFigure('nothing'), '');
});

test('a rules page has a route of its own, and an unknown game falls back to the list of every game', () => {
  assert.deepEqual(parseRoute('#/rules/insect'), { name: 'rules', params: { game: 'insect' } });
  assert.deepEqual(parseRoute('#/rules/draughts/'), { name: 'rules', params: { game: 'draughts' } });
  assert.deepEqual(parseRoute('#/rules/chess'), { name: 'rules', params: { game: null } });
  assert.deepEqual(parseRoute('#/rules/constructor'), { name: 'rules', params: { game: null } });
  assert.deepEqual(parseRoute('#/rules'), { name: 'rules', params: { game: null } });
  assert.equal(href('rules', { game: 'othello' }), '#/rules/othello');
  assert.equal(href('rules'), '#/rules');
});

test("the site's name is every game's, and a seat's word is the game's own: South and North in insect chess", () => {
  assert.equal(translate('en', 'app.name'), 'Board Game Hall');
  assert.equal(translate('zh', 'app.name'), '棋苑');
  for (const lang of ['en', 'zh']) assert.doesNotMatch(translate(lang, 'app.name') + translate(lang, 'app.tagline'), /Gomoku|Five in a row|五子/);
  try {
    setLang('en');
    assert.equal(colourWord('insect', 'black'), 'South');
    assert.equal(colourWord({ game: { game: 'insect' } }, 'white'), 'North');
    assert.equal(colourWord('othello', 'black'), 'Black');
    assert.equal(colourWord(null, 'white'), 'White');
    setLang('zh');
    assert.equal(colourWord('insect', 'black'), '南方');
    assert.equal(colourWord('gomoku', 'black'), '黑方');
  } finally {
    setLang('en');
  }
});
