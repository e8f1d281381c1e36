// A folder path typed by the person: edited freely, committed on Enter, on blur or with its button.
import { useEffect, useState, type ReactNode } from 'react';

export interface PathFieldProps {
  id: string;
  label: string;
  value: string;
  placeholder?: string;
  /** The button's text ("Scan", "Set"). */
  action: string;
  onCommit: (value: string) => void;
  testId?: string;
  describedBy?: string;
  /** More controls beside the button (the app's "Choose…"). */
  children?: ReactNode;
}

export function PathField({ id, label, value, placeholder, action, onCommit, testId, describedBy, children }: PathFieldProps) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const commit = () => {
    if (text.trim() !== value) onCommit(text.trim());
  };
  return (
    <div className="import-field">
      <label htmlFor={id}>{label}</label>
      <div className="import-field-row">
        <input
          id={id}
          className="import-input"
          type="text"
          spellCheck={false}
          value={text}
          placeholder={placeholder}
          data-testid={testId}
          data-own-enter=""
          aria-describedby={describedBy}
          onChange={(event) => setText(event.target.value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            commit();
          }}
        />
        <button type="button" className="button" onClick={commit} aria-label={`${action}: ${label}`}>
          {action}
        </button>
        {children}
      </div>
    </div>
  );
}
