// The theme picker at the right of the status bar: System (follows the OS, live), Light or Dark, kept across starts.
// The palette (Ctrl+K) offers the same as "Theme: System / Light / Dark".
import { setThemeSetting, themeLabels, themeSettings, useThemeSetting, type ThemeSetting } from '../hooks/use-color-scheme';

function isThemeSetting(value: string): value is ThemeSetting {
  return (themeSettings as readonly string[]).includes(value);
}

export function ThemePicker() {
  const setting = useThemeSetting();
  return (
    <label className="status-item theme-picker" title="Colours of Memory Studio and its editors (also in the palette, Ctrl+K: Theme)">
      <span className="theme-picker-label">Theme</span>
      <select
        aria-label="Theme"
        data-testid="theme-select"
        value={setting}
        onChange={(event) => {
          if (isThemeSetting(event.target.value)) setThemeSetting(event.target.value);
        }}
      >
        {themeSettings.map((value) => (
          <option key={value} value={value}>
            {themeLabels[value]}
          </option>
        ))}
      </select>
    </label>
  );
}
