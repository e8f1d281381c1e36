// The file-name filter; `/` or Ctrl/Cmd+P focus it from anywhere (see use-global-shortcuts).
import type { Ref } from 'react';

export interface FilterBoxProps {
  value: string;
  onChange: (value: string) => void;
  matchCount: number | null;
  disabled: boolean;
  onArrowDown: () => void;
  onSubmit: () => void;
  inputRef: Ref<HTMLInputElement>;
}

export function FilterBox({ value, onChange, matchCount, disabled, onArrowDown, onSubmit, inputRef }: FilterBoxProps) {
  return (
    <div className="filter">
      <input
        ref={inputRef}
        type="text"
        role="searchbox"
        className="filter-input"
        placeholder="Filter files  ( / )"
        aria-label="Filter files by name"
        aria-controls="file-tree"
        aria-keyshortcuts="/ Control+P"
        spellCheck={false}
        autoComplete="off"
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            onArrowDown();
          } else if (event.key === 'Enter') {
            event.preventDefault();
            onSubmit();
          } else if (event.key === 'Escape') {
            // First Escape clears, the second leaves the box.
            if (value) onChange('');
            else event.currentTarget.blur();
            event.preventDefault();
          }
        }}
      />
      <p className="filter-status muted" aria-live="polite">
        {value && matchCount !== null ? `${matchCount.toLocaleString()} matching ${matchCount === 1 ? 'file' : 'files'}` : ''}
      </p>
    </div>
  );
}
