// Runs before the first paint, as a classic script in <head> (the CSP allows no inline script): puts the theme saved by
// src/hooks/use-color-scheme.ts (same storage key) on <html>, so a page set to Dark never flashes light, nor the reverse.
/* global window, document */
try {
  const saved = window.localStorage.getItem('memory-studio.theme');
  if (saved === 'light' || saved === 'dark') document.documentElement.dataset.theme = saved;
} catch {
  // Storage refused: the page follows the OS, as under the System theme.
}
