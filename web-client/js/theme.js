// Light and dark follow the system (CSS prefers-color-scheme); a manual choice overrides it and is remembered.

const KEY = 'gomoku.theme';

/** The next theme in the cycle system -> light -> dark -> system. */
export function nextTheme(current) {
  return { system: 'light', light: 'dark', dark: 'system' }[current] || 'system';
}

/** Applies a theme choice to the document ("system" removes the override). */
export function applyTheme(choice) {
  const root = document.documentElement;
  if (choice === 'light' || choice === 'dark') root.dataset.theme = choice;
  else delete root.dataset.theme;
}

/** The remembered choice. */
export function loadTheme() {
  let choice = 'system';
  try {
    choice = localStorage.getItem(KEY) || 'system';
  } catch {
    choice = 'system';
  }
  applyTheme(choice);
  return choice;
}

/** Remembers and applies a choice. */
export function saveTheme(choice) {
  try {
    localStorage.setItem(KEY, choice);
  } catch {
    // Storage refused: the choice lasts for this page.
  }
  applyTheme(choice);
}
