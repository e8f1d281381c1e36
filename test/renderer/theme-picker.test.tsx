// The theme picker: the choice goes on <html> for CSS, into localStorage for the next start, and back to the OS on System.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY } from '../../renderer/src/hooks/use-color-scheme';
import { ThemePicker } from '../../renderer/src/status/theme-picker';

describe('theme picker', () => {
  it('pins Dark and Light on <html> and keeps them, and System leaves the scheme to the OS', async () => {
    const user = userEvent.setup();
    render(<ThemePicker />);
    const select = screen.getByTestId('theme-select');
    expect(select).toHaveProperty('value', 'system');

    await user.selectOptions(select, 'dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(select).toHaveProperty('value', 'dark');

    await user.selectOptions(select, 'light');
    expect(document.documentElement.dataset.theme).toBe('light');

    await user.selectOptions(select, 'system');
    expect(document.documentElement.dataset.theme).toBeUndefined();
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('system');
  });
});
