// The engine settings form as typed text, checked against the contract's schema before it is saved.
import { useState } from 'react';
import { EngineSettingsSchema, type EngineSettings, type EngineSettingsView } from '../../../shared/consolidate';

export interface SettingsDraft {
  codexCommand: string;
  codexModel: string;
  codexTimeout: string;
  openaiBaseUrl: string;
  openaiModel: string;
  openaiApiKeyEnv: string;
  openaiTimeout: string;
  openaiRetries: string;
}

export type DraftField = keyof SettingsDraft;

export function fromSettings(settings: EngineSettings): SettingsDraft {
  return {
    codexCommand: settings.codex.command ?? '',
    codexModel: settings.codex.model ?? '',
    codexTimeout: String(settings.codex.timeoutSeconds),
    openaiBaseUrl: settings.openai.baseUrl,
    openaiModel: settings.openai.model,
    openaiApiKeyEnv: settings.openai.apiKeyEnv,
    openaiTimeout: String(settings.openai.timeoutSeconds),
    openaiRetries: String(settings.openai.maxRetries),
  };
}

const fieldNames: Record<string, string> = {
  'codex.command': 'Codex command',
  'codex.model': 'Codex model',
  'codex.timeoutSeconds': 'Codex timeout',
  'openai.baseUrl': 'Base URL',
  'openai.model': 'Model',
  'openai.apiKeyEnv': 'API key variable',
  'openai.timeoutSeconds': 'OpenAI timeout',
  'openai.maxRetries': 'Retries',
};

const toNumber = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text));
const orNull = (text: string): string | null => (text.trim() === '' ? null : text.trim());

export type ParsedDraft = { ok: true; settings: EngineSettings } | { ok: false; message: string };

/** The draft as settings, or the first problem in words (`Codex timeout: must be at least 10`). */
export function toSettings(draft: SettingsDraft, base: EngineSettings): ParsedDraft {
  const candidate = {
    engine: base.engine,
    codex: { command: orNull(draft.codexCommand), model: orNull(draft.codexModel), timeoutSeconds: toNumber(draft.codexTimeout) },
    openai: {
      baseUrl: draft.openaiBaseUrl.trim(),
      model: draft.openaiModel.trim(),
      apiKeyEnv: draft.openaiApiKeyEnv.trim(),
      timeoutSeconds: toNumber(draft.openaiTimeout),
      maxRetries: toNumber(draft.openaiRetries),
    },
  };
  const parsed = EngineSettingsSchema.safeParse(candidate);
  if (parsed.success) return { ok: true, settings: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue ? (fieldNames[issue.path.join('.')] ?? issue.path.join('.')) : 'Settings';
  const message = issue?.code === 'invalid_type' ? 'a whole number is needed' : (issue?.message ?? 'invalid');
  return { ok: false, message: `${where}: ${message}` };
}

export interface SettingsDraftState {
  draft: SettingsDraft | null;
  dirty: boolean;
  parsed: ParsedDraft | null;
  set: (field: DraftField, value: string) => void;
  reset: () => void;
}

/** Edits start from the saved settings; until the first keystroke the form follows what the host says. */
export function useSettingsDraft(view: EngineSettingsView | undefined): SettingsDraftState {
  const [edited, setEdited] = useState<SettingsDraft | null>(null);
  const saved = view ? fromSettings(view.settings) : null;
  const draft = edited ?? saved;
  const dirty = !!edited && !!saved && (Object.keys(saved) as DraftField[]).some((key) => saved[key] !== edited[key]);
  return {
    draft,
    dirty,
    parsed: draft && view ? toSettings(draft, view.settings) : null,
    set: (field, value) => {
      if (draft) setEdited({ ...draft, [field]: value });
    },
    reset: () => setEdited(null),
  };
}
