// One dark palette (issue #15): app.css declares each colour token once, with both of its values, and nothing
// else chooses colours by theme. (The browser test in client.test.js checks the computed colours agree.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { nextTheme } from '../../web-client/js/theme.js';

const css = readFileSync(new URL('../../web-client/css/app.css', import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');

test('every palette token is declared exactly once, as light-dark(light, dark)', () => {
  const decls = [...css.matchAll(/(--[a-z0-9-]+)\s*:\s*([^;]+);/g)];
  const counts = {};
  for (const [, name] of decls) counts[name] = (counts[name] || 0) + 1;
  const twice = Object.entries(counts).filter(([, n]) => n > 1).map(([k]) => k);
  assert.deepEqual(twice, [], 'tokens declared more than once');
  for (const token of ['--bg', '--surface', '--surface-2', '--text', '--muted', '--line', '--accent', '--accent-ink', '--accent-soft', '--danger', '--up', '--down', '--wood-1', '--wood-2', '--grid']) {
    const d = decls.find(([, name]) => name === token);
    assert.ok(d, `${token} is declared`);
    assert.match(d[2].trim(), /^light-dark\(/, `${token} carries both themes`);
  }
});

test('no rule picks colours by the system theme or by data-theme except to set color-scheme', () => {
  assert.doesNotMatch(css, /prefers-color-scheme/);
  const themed = [...css.matchAll(/([^{}]*\[data-theme=[^{}]*)\{([^}]*)\}/g)];
  assert.equal(themed.length, 2, 'one rule for each chosen theme');
  for (const [, , body] of themed) assert.match(body.trim(), /^color-scheme: (light|dark);$/);
});

test('the theme button cycles system, light, dark', () => {
  assert.deepEqual(['system', 'light', 'dark'].map(nextTheme), ['light', 'dark', 'system']);
});
