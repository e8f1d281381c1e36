// The `openai` engine: one streaming chat completion against any OpenAI-compatible endpoint, answer written to staging.
import { StudioFailure } from '../../platform/errors';
import { validateBaseUrl } from '../engine-settings';
import type { Engine, EngineResult, EngineRun } from '../types';
import { abortError } from './abort';
import { answerFormatInstructions, parseAnswer, writeAnswerFiles } from './openai-answer';
import { collectStagedInputs, DEFAULT_INPUT_CHAR_BUDGET } from './openai-input';
import { type ChatStreamResult, readChatStream } from './openai-stream';

export interface OpenAiEngineOptions {
  /** First retry delay; doubles per attempt, plus jitter (default 1 s). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Longest silence allowed between stream chunks (default: the overall timeout, at most 5 min). */
  idleTimeoutMs?: number;
  inputCharBudget?: number;
}

type StopReason = 'cancelled' | 'timeout' | 'idle';

interface Attempt {
  controller: AbortController;
  why: () => StopReason | null;
  /** Restarts the idle timer. */
  touch: () => void;
  dispose: () => void;
}

interface RequestPlan {
  url: string;
  key: string;
  body: string;
  /** The same request without `stream_options`, for endpoints that refuse it (null once used). */
  plainBody: string | null;
  deadline: number;
  idleMs: number;
}

/** What a chat request needs of a run: the settings, the key, cancel, and where its log and progress go. */
export type ChatRun = Pick<EngineRun, 'settings' | 'signal' | 'progress' | 'log' | 'env' | 'apiKey'>;

function keyOf(run: ChatRun): string {
  const { openai } = run.settings;
  const key = run.apiKey?.trim() || run.env[openai.apiKeyEnv]?.trim();
  if (!key) {
    throw new StudioFailure('Invalid', `No API key for the openai engine: ${openai.apiKeyEnv} is not set and no key is stored.`, {
      hint: `Set the environment variable ${openai.apiKeyEnv} before starting Memory Studio, or store a key in the engine settings (desktop app).`,
    });
  }
  return key;
}

type ChatMessage = { role: 'system' | 'user'; content: string };

/** The streaming request for `messages`, with its plain twin for endpoints that refuse `stream_options`. */
function requestPlan(run: ChatRun, key: string, baseUrl: string, messages: ChatMessage[], options: OpenAiEngineOptions): RequestPlan {
  const request = { model: run.settings.openai.model, stream: true, messages };
  const timeoutMs = run.settings.openai.timeoutSeconds * 1000;
  return {
    url: `${baseUrl}/chat/completions`,
    key,
    body: JSON.stringify({ ...request, stream_options: { include_usage: true } }),
    plainBody: JSON.stringify(request),
    deadline: Date.now() + timeoutMs,
    idleMs: options.idleTimeoutMs ?? Math.min(timeoutMs, 300_000),
  };
}

/**
 * One streamed chat completion with the engine's settings, retries, timeouts and cancel (the doctor's model help);
 * an answer cut at the output limit or stopped by a content filter is a failure.
 */
export async function chatComplete(run: ChatRun, messages: ChatMessage[], options: OpenAiEngineOptions = {}): Promise<ChatStreamResult> {
  if (run.signal.aborted) throw abortError(run.signal);
  const stream = await requestWithRetries(
    run,
    requestPlan(run, keyOf(run), validateBaseUrl(run.settings.openai.baseUrl), messages, options),
    options,
  );
  const model = run.settings.openai.model;
  if (stream.finishReason === 'length')
    throw new StudioFailure('Internal', `The answer of ${model} was cut off at its output limit after ${stream.text.length} characters.`, {
      hint: 'Use a model with a larger output limit.',
    });
  if (stream.finishReason === 'content_filter')
    throw new StudioFailure('Internal', `The endpoint's content filter stopped the answer of ${model}.`);
  return stream;
}

export function createOpenAiEngine(options: OpenAiEngineOptions = {}): Engine {
  return async (run) => {
    if (run.signal.aborted) throw abortError(run.signal);
    const { openai } = run.settings;
    const key = keyOf(run);
    const baseUrl = validateBaseUrl(openai.baseUrl);
    const bundle = await collectStagedInputs(run.stagingRoot, run.version, options.inputCharBudget ?? DEFAULT_INPUT_CHAR_BUDGET);
    run.log(`Sending ${bundle.included.length} file(s), ${bundle.chars} characters, to ${openai.model} at ${baseUrl}.`);
    if (bundle.leftOut.length > 0) run.log(`Left out for size: ${bundle.leftOut.join(', ')}`);
    if (bundle.truncated.length > 0) run.log(`Cut short for size: ${bundle.truncated.join(', ')}`);
    const messages: ChatMessage[] = [
      { role: 'system', content: `${run.instructions.trimEnd()}\n\n${answerFormatInstructions(run.version)}\n` },
      { role: 'user', content: bundle.message },
    ];
    const stream = await requestWithRetries(run, requestPlan(run, key, baseUrl, messages, options), options);
    return finish(run, stream);
  };
}

export const openaiEngine: Engine = createOpenAiEngine();

async function requestWithRetries(run: ChatRun, plan: RequestPlan, options: OpenAiEngineOptions): Promise<ChatStreamResult> {
  const maxRetries = run.settings.openai.maxRetries;
  for (let attempt = 0; ; attempt++) {
    const retry = await requestOnce(run, plan);
    if ('result' in retry) return retry.result;
    if (retry.withoutUsage && plan.plainBody) {
      run.log('The endpoint refused stream_options; asking again without token usage.');
      plan.body = plan.plainBody;
      plan.plainBody = null;
      attempt--;
      continue;
    }
    if (attempt >= maxRetries) throw retry.failure;
    const base = options.baseDelayMs ?? 1000;
    const backoff = Math.min(options.maxDelayMs ?? 30_000, base * 2 ** attempt) + Math.random() * base;
    const delay = retry.retryAfterMs ?? backoff;
    if (Date.now() + delay >= plan.deadline) throw retry.failure;
    run.log(`${retry.failure.message} Retrying in ${(delay / 1000).toFixed(1)} s (attempt ${attempt + 2} of ${maxRetries + 1}).`);
    run.progress(`Waiting to retry (${retry.failure.message})`);
    await sleep(delay, run.signal);
  }
}

type OnceResult = { result: ChatStreamResult } | { failure: StudioFailure; retryAfterMs: number | null; withoutUsage?: boolean };

/** One request: a retryable failure (429, 5xx, network before the first byte) is returned, anything else thrown. */
async function requestOnce(run: ChatRun, plan: RequestPlan): Promise<OnceResult> {
  const attempt = startAttempt(run.signal, plan);
  try {
    let response: Response;
    try {
      response = await fetch(plan.url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${plan.key}`, 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: plan.body,
        signal: attempt.controller.signal,
      });
    } catch (error) {
      throwIfStopped(run, attempt.why(), plan);
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
      return {
        failure: new StudioFailure('Internal', `Could not reach ${plan.url} (${cause}).`, {
          hint: 'Check the base URL and your network connection.',
          cause: error,
        }),
        retryAfterMs: null,
      };
    }
    attempt.touch();
    if (!response.ok) return await statusOutcome(response, plan);
    if (!response.body)
      throw new StudioFailure('Internal', `${plan.url} answered without a body.`, { hint: 'Check that the endpoint supports streaming.' });
    run.progress('The model is answering.');
    return { result: await readWithProgress(run, response.body, attempt, plan) };
  } finally {
    attempt.dispose();
  }
}

async function readWithProgress(
  run: ChatRun,
  body: ReadableStream<Uint8Array>,
  attempt: Attempt,
  plan: RequestPlan,
): Promise<ChatStreamResult> {
  let lastReport = 0;
  try {
    return await readChatStream(body, {
      onActivity: attempt.touch,
      onDelta: (_delta, total) => {
        if (total - lastReport < 2000 && lastReport !== 0) return;
        lastReport = total;
        run.progress(`Received ${total} characters (~${Math.round(total / 4)} tokens) from the model.`);
      },
    });
  } catch (error) {
    throwIfStopped(run, attempt.why(), plan);
    if (error instanceof StudioFailure) throw error;
    throw new StudioFailure('Internal', `The connection to ${plan.url} broke off mid-answer (${(error as Error).message}).`, {
      hint: 'Run again.',
      cause: error,
    });
  }
}

function startAttempt(signal: AbortSignal, plan: RequestPlan): Attempt {
  const controller = new AbortController();
  let why: StopReason | null = null;
  const stop = (reason: StopReason) => {
    if (why) return;
    why = reason;
    controller.abort();
  };
  const onAbort = () => stop('cancelled');
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) stop('cancelled');
  const overall = setTimeout(() => stop('timeout'), Math.max(0, plan.deadline - Date.now()));
  let idle = setTimeout(() => stop('idle'), plan.idleMs);
  return {
    controller,
    why: () => why,
    touch: () => {
      clearTimeout(idle);
      idle = setTimeout(() => stop('idle'), plan.idleMs);
    },
    dispose: () => {
      clearTimeout(overall);
      clearTimeout(idle);
      signal.removeEventListener('abort', onAbort);
    },
  };
}

function throwIfStopped(run: ChatRun, why: StopReason | null, plan: RequestPlan): void {
  if (why === 'cancelled' || run.signal.aborted) throw abortError(run.signal);
  const hint = 'Raise the timeout in the engine settings, select fewer inputs, or try a faster model. Nothing was applied to your memory.';
  if (why === 'timeout')
    throw new StudioFailure('Internal', `The model did not finish within ${run.settings.openai.timeoutSeconds} s (${plan.url}).`, { hint });
  if (why === 'idle')
    throw new StudioFailure(
      'Internal',
      `The endpoint sent nothing for ${Math.round(plan.idleMs / 1000)} s and the request was stopped (${plan.url}).`,
      { hint },
    );
}

async function statusOutcome(response: Response, plan: RequestPlan): Promise<OnceResult> {
  const detail = await errorDetail(response);
  const status = response.status;
  const what = `${plan.url} answered HTTP ${status}${detail ? `: ${detail}` : ''}.`;
  if (status === 429)
    return {
      failure: new StudioFailure('Busy', `Rate limited: ${what}`, {
        hint: 'Wait a little and run again, or check the quota of your API key.',
      }),
      retryAfterMs: retryAfter(response),
    };
  if (status >= 500)
    return {
      failure: new StudioFailure('Internal', `Server error: ${what}`, { hint: 'The endpoint has a problem; run again later.' }),
      retryAfterMs: retryAfter(response),
    };
  if (status === 401 || status === 403) {
    throw new StudioFailure('Invalid', `The endpoint refused the API key: ${what}`, {
      hint: 'Check the key (environment variable or stored key) and that it may use this model.',
    });
  }
  if (status === 400 && plan.plainBody && /stream_options|include_usage/i.test(detail)) {
    return { failure: new StudioFailure('Invalid', `The endpoint refused stream_options: ${what}`), retryAfterMs: 0, withoutUsage: true };
  }
  if (status === 404)
    throw new StudioFailure('NotFound', `Not found: ${what}`, {
      hint: 'Check the base URL (OpenAI: https://api.openai.com/v1) and the model name.',
    });
  throw new StudioFailure('Invalid', `The endpoint refused the request: ${what}`, {
    hint: 'Check the model name and that it supports streaming chat completions; if the input is too long, select fewer inputs.',
  });
}

async function errorDetail(response: Response): Promise<string> {
  const text = (await response.text().catch(() => '')).slice(0, 4000);
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof message === 'string') return message.slice(0, 300);
  } catch {
    // not JSON
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, 300);
}

/** `Retry-After` in seconds or as an HTTP date, in milliseconds; null when absent or unreadable. */
export function retryAfter(response: Pick<Response, 'headers'>): number | null {
  const value = response.headers.get('retry-after')?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolveSleep, reject) => {
    if (signal.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolveSleep();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

async function finish(run: EngineRun, stream: ChatStreamResult): Promise<EngineResult> {
  const model = run.settings.openai.model;
  if (stream.finishReason === 'length') {
    throw new StudioFailure(
      'Internal',
      `The answer of ${model} was cut off at its output limit after ${stream.text.length} characters; nothing was written.`,
      {
        hint: 'Select fewer inputs or use a model with a larger output limit.',
      },
    );
  }
  if (stream.finishReason === 'content_filter')
    throw new StudioFailure('Internal', `The endpoint's content filter stopped the answer of ${model}; nothing was written.`);
  const answer = parseAnswer(stream.text);
  for (const problem of answer.problems) run.log(`Warning: ${problem}`);
  if (answer.remarks) run.log(`Model: ${answer.remarks.slice(0, 300)}`);
  const wrote = await writeAnswerFiles(run.stagingRoot, run.version, answer.files, run.log);
  if (answer.files.length === 0 && !answer.noChanges) run.log('Warning: the answer contained no <file> blocks, so nothing was written.');
  const usageText = stream.usage ? `, ${stream.usage.inputTokens} input / ${stream.usage.outputTokens} output tokens` : '';
  const message = `${model} answered ${stream.text.length} characters: ${wrote.length} file(s) written${usageText}.`;
  run.log(message);
  run.progress(message, 1);
  return { engine: 'openai', model, wrote, usage: stream.usage, message };
}
