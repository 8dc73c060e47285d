// Chinese all the way: tier names and dates follow the chosen language, not the server's English or the
// browser's locale (issue #14, item 18).
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { setLang, formatDate, en, zh } from '../../web-client/js/i18n.js';
import { tierName } from '../../web-client/js/tier.js';

// The server's table (ratings/src/tier.rs): codes and English names.
const TIERS = { unranked: 'Unranked', beginner: 'Beginner', novice: 'Novice', apprentice: 'Apprentice', amateur: 'Amateur', club_player: 'Club Player', advanced: 'Advanced', expert: 'Expert', candidate_master: 'Candidate Master', master: 'Master', international_master: 'International Master', grand_master: 'Grand Master' };
afterEach(() => setLang('en', null));

test('every tier the server knows has words in both languages, the English ones the server\'s', () => {
  for (const [code, name] of Object.entries(TIERS)) {
    assert.equal(en[`tier.${code}`], name, code);
    assert.ok(zh[`tier.${code}`] && zh[`tier.${code}`] !== name, code);
  }
});

test('in Chinese a tier shows its Chinese name, by code or by the English name alone', () => {
  setLang('zh', null);
  assert.equal(tierName('Club Player', 'club_player'), '俱乐部棋手');
  assert.equal(tierName('Unranked'), '未定级');
  assert.equal(tierName('Club Player'), '俱乐部棋手');
});

test('a tier we have no words for keeps the server\'s name', () => {
  setLang('zh', null);
  assert.equal(tierName('Legend', 'legend'), 'Legend');
});

test('dates are written in the chosen language', () => {
  const ms = Date.UTC(2023, 11, 8, 12);
  setLang('zh', null);
  assert.equal(formatDate(ms), '2023年12月8日');
  setLang('en', null);
  assert.equal(formatDate(ms), 'Dec 8, 2023');
});
