// Checks every answer and event against the zod schemas of shared/contract, so a mismatched host shows an error, not a crash.
import type { z } from 'zod';
import { channels, events, isEventName, type ChannelName, type EventEnvelope } from '../../../shared/contract';
import { fail, resultSchema, type Result } from '../../../shared/result';

const schemaCache = new Map<ChannelName, z.ZodTypeAny>();

function resultSchemaFor(channel: ChannelName): z.ZodTypeAny {
  let schema = schemaCache.get(channel);
  if (!schema) {
    schema = resultSchema(channels[channel].output);
    schemaCache.set(channel, schema);
  }
  return schema;
}

function describeIssues(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'unknown shape';
  const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'the answer';
  return `${where}: ${issue.message}`;
}

/** Parses a raw answer into a Result; anything that does not match becomes an Internal error naming the channel. */
export function validateResult(channel: ChannelName, raw: unknown): Result<unknown> {
  const parsed = resultSchemaFor(channel).safeParse(raw);
  if (parsed.success) return parsed.data as Result<unknown>;
  return fail({
    kind: 'Internal',
    message: `Memory Studio received an answer it does not understand from ${channel} (${describeIssues(parsed.error)}).`,
    hint: 'The window and the Memory Studio host are out of step. Restart Memory Studio; if this persists, report it as a bug.',
  });
}

/** Parses a raw `{event, payload}` envelope; unknown events or malformed payloads yield null and are dropped. */
export function parseEnvelope(raw: unknown): EventEnvelope | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { event, payload } = raw as { event?: unknown; payload?: unknown };
  if (!isEventName(event)) return null;
  const parsed = events[event].safeParse(payload);
  if (!parsed.success) return null;
  return { event, payload: parsed.data } as EventEnvelope;
}
