// The engine of a run (built-in, Codex CLI, OpenAI-compatible), its settings, and the API key kept in the OS keychain.
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { engineNames, type ApiKeyStatus, type EngineName, type EngineTrust } from '../../../shared/consolidate';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { useStudioMutation } from '../api/studio-query';
import { engineHints, engineLabels } from './run-labels';
import type { DraftField, SettingsDraftState } from './settings-draft';

export function EnginePicker({
  value,
  onChange,
  disabled,
}: {
  value: EngineName;
  onChange: (engine: EngineName) => void;
  disabled: boolean;
}) {
  const name = useId();
  return (
    <fieldset className="segmented" data-testid="engine-picker" disabled={disabled}>
      <legend className="sr-only">Engine</legend>
      {engineNames.map((engine) => (
        <label key={engine} className={engine === value ? 'segment is-checked' : 'segment'} title={engineHints[engine].replace(/`/g, '')}>
          <input
            type="radio"
            name={name}
            value={engine}
            checked={engine === value}
            data-engine={engine}
            aria-label={`Engine: ${engineLabels[engine]}`}
            onChange={() => onChange(engine)}
          />
          {engineLabels[engine]}
        </label>
      ))}
    </fieldset>
  );
}

interface FieldProps {
  label: string;
  field: DraftField;
  state: SettingsDraftState;
  type?: 'text' | 'number' | 'url';
  placeholder?: string;
  hint?: ReactNode;
  /** Shown, not editable: the value is chosen another way (main's dialog, the host's command line). */
  readOnly?: boolean;
}

function Field({ label, field, state, type = 'text', placeholder, hint, readOnly = false }: FieldProps) {
  return (
    <label className="field">
      <span>{label}</span>
      <input
        type={type}
        value={state.draft?.[field] ?? ''}
        placeholder={placeholder}
        spellCheck={false}
        autoComplete="off"
        data-field={field}
        readOnly={readOnly}
        aria-readonly={readOnly}
        onChange={(event) => state.set(field, event.target.value)}
      />
      {hint ? <span className="muted small">{hint}</span> : null}
    </label>
  );
}

function CodexFields({ state, trust }: { state: SettingsDraftState; trust: EngineTrust }) {
  const choose = useStudioMutation('consolidate.chooseCodexCommand');
  return (
    <>
      <Field
        label="Codex command"
        field="codexCommand"
        state={state}
        readOnly
        placeholder="codex (first on PATH)"
        hint={
          trust.canChooseCodexCommand
            ? 'Chosen with Choose… and checked to be the Codex CLI; empty uses the first codex on PATH.'
            : 'Set with memory-studio serve --codex-command PATH; empty uses the first codex on PATH.'
        }
      />
      {trust.canChooseCodexCommand ? (
        <button type="button" className="button button-small" disabled={choose.isPending} onClick={() => choose.mutate({})}>
          {choose.isPending ? 'Checking…' : 'Choose…'}
        </button>
      ) : null}
      {choose.error ? <ErrorPanel compact title="Cannot use that program" error={toStudioError(choose.error)} /> : null}
      <Field label="Codex model" field="codexModel" state={state} placeholder="Codex's default" />
      <Field label="Codex timeout (seconds)" field="codexTimeout" state={state} type="number" />
    </>
  );
}

/** The host the key would go to with the base URL as typed (the saved one while the text is not a URL). */
function keyHostOf(baseUrl: string | undefined, saved: string): string {
  try {
    return baseUrl ? new URL(baseUrl).host : saved;
  } catch {
    return saved;
  }
}

function OpenAiFields({ state, trust }: { state: SettingsDraftState; trust: EngineTrust }) {
  const locked = !trust.keyTargetEditable;
  return (
    <>
      <Field
        label="Base URL"
        field="openaiBaseUrl"
        state={state}
        type="url"
        readOnly={locked}
        placeholder="https://api.openai.com/v1"
        hint="https://, or http:// to this machine only."
      />
      <p className="small" data-testid="key-host">
        The API key is sent to <strong>{keyHostOf(state.draft?.openaiBaseUrl, trust.keyHost)}</strong>.
      </p>
      <Field label="Model" field="openaiModel" state={state} />
      <Field
        label="API key variable"
        field="openaiApiKeyEnv"
        state={state}
        readOnly={locked}
        placeholder="OPENAI_API_KEY"
        hint="The environment variable that holds the key; the key itself is never saved here."
      />
      <Field label="OpenAI timeout (seconds)" field="openaiTimeout" state={state} type="number" />
      <Field label="Retries" field="openaiRetries" state={state} type="number" hint="On 429 and 5xx answers, with backoff." />
    </>
  );
}

const keySources: Record<ApiKeyStatus['source'], { text: string; className: string }> = {
  env: { text: 'From the environment', className: 'badge-ok' },
  keychain: { text: 'In the OS keychain', className: 'badge-ok' },
  none: { text: 'No key', className: 'badge-warn' },
};

/** Shows where the key comes from; a key typed here goes to the keychain and is never shown again. */
export function ApiKeyPanel({ status }: { status: ApiKeyStatus }) {
  const [key, setKey] = useState('');
  const setApiKey = useStudioMutation('consolidate.setApiKey');
  const store = (event: FormEvent) => {
    event.preventDefault();
    if (key.trim() === '') return;
    setApiKey.mutate({ apiKey: key.trim() }, { onSuccess: () => setKey('') });
  };
  return (
    <div className="api-key" data-testid="api-key" data-source={status.source}>
      <p>
        <span className={`badge ${keySources[status.source].className}`}>{keySources[status.source].text}</span>{' '}
        <span className="small">{status.message}</span>
      </p>
      {status.keychainAvailable ? (
        <form className="api-key-form" onSubmit={store}>
          <label className="field">
            <span>API key</span>
            <input
              type="password"
              value={key}
              autoComplete="new-password"
              spellCheck={false}
              onChange={(event) => setKey(event.target.value)}
            />
          </label>
          <button type="submit" className="button" disabled={key.trim() === '' || setApiKey.isPending}>
            {setApiKey.isPending ? 'Storing…' : 'Store in keychain'}
          </button>
          {status.source === 'keychain' ? (
            <button type="button" className="button" disabled={setApiKey.isPending} onClick={() => setApiKey.mutate({ apiKey: null })}>
              Forget stored key
            </button>
          ) : null}
        </form>
      ) : null}
      {setApiKey.error ? <ErrorPanel compact title="Cannot store the key" error={toStudioError(setApiKey.error)} /> : null}
    </div>
  );
}

export interface EngineSettingsPanelProps {
  engine: EngineName;
  defaultEngine: EngineName;
  state: SettingsDraftState;
  apiKey: ApiKeyStatus;
  trust: EngineTrust;
  saving: boolean;
  saveError: unknown;
  onSave: () => void;
  onMakeDefault: () => void;
}

export function EngineSettingsPanel({
  engine,
  defaultEngine,
  state,
  apiKey,
  trust,
  saving,
  saveError,
  onSave,
  onMakeDefault,
}: EngineSettingsPanelProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave();
  };
  const invalid = state.parsed && !state.parsed.ok ? state.parsed.message : null;
  return (
    <section className="card engine-settings" aria-labelledby="engine-settings-title" data-testid="engine-settings" data-engine={engine}>
      <h2 id="engine-settings-title">
        Engine: {engineLabels[engine]} {engine === defaultEngine ? <span className="badge badge-small">default</span> : null}
      </h2>
      <p className="muted small">{engineHints[engine].replace(/`/g, '')}</p>
      {engine !== defaultEngine ? (
        <button type="button" className="button button-small" onClick={onMakeDefault} disabled={saving}>
          Make {engineLabels[engine]} the default
        </button>
      ) : null}
      {engine === 'builtin' ? null : (
        <form className="engine-form" onSubmit={submit} aria-label={`${engineLabels[engine]} settings`}>
          {engine === 'codex' ? <CodexFields state={state} trust={trust} /> : <OpenAiFields state={state} trust={trust} />}
          {trust.note ? (
            <p className="muted small" data-testid="trust-note">
              {trust.note}
            </p>
          ) : null}
          {invalid ? (
            <p className="text-danger small" role="alert">
              {invalid}
            </p>
          ) : null}
          <div className="engine-form-actions">
            <button type="submit" className="button" disabled={!state.dirty || !!invalid || saving}>
              {saving ? 'Saving…' : 'Save settings'}
            </button>
            <button type="button" className="button" disabled={!state.dirty || saving} onClick={state.reset}>
              Discard changes
            </button>
            {state.dirty ? <span className="muted small">Unsaved: Start saves them first.</span> : null}
          </div>
        </form>
      )}
      {engine === 'openai' ? <ApiKeyPanel status={apiKey} /> : null}
      {saveError ? <ErrorPanel compact title="Cannot save the engine settings" error={toStudioError(saveError)} /> : null}
    </section>
  );
}
