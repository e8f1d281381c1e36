// Picks the memory root (v1 `memories/` or v2 `memories_v2/`) a page shows; native radios, so arrows work.
import { useId } from 'react';
import type { MemoryVersion } from '../../../shared/domain';

export interface VersionPickerProps {
  versions: readonly MemoryVersion[];
  value: MemoryVersion;
  onChange: (version: MemoryVersion) => void;
}

const folder: Record<MemoryVersion, string> = { v1: 'memories/', v2: 'memories_v2/' };

export function VersionPicker({ versions, value, onChange }: VersionPickerProps) {
  const name = useId();
  return (
    <fieldset className="segmented" data-testid="version-picker">
      <legend className="sr-only">Memory root</legend>
      {versions.map((version) => (
        <label key={version} className={version === value ? 'segment is-checked' : 'segment'} title={folder[version]}>
          <input
            type="radio"
            name={name}
            value={version}
            checked={version === value}
            data-version={version}
            onChange={() => onChange(version)}
          />
          {version} <span className="muted">{folder[version]}</span>
        </label>
      ))}
    </fieldset>
  );
}
