// A Codex timestamp as local time plus "in 3 hours" / "2 days ago" relative to the health report's own clock.
import type { UnixTime } from '../../../shared/health';
import { formatRelative, formatUnix } from '../lib/format';

export interface TimeTextProps {
  time: UnixTime | null;
  now: UnixTime;
  fallback?: string;
}

export function TimeText({ time, now, fallback = 'never' }: TimeTextProps) {
  if (!time) return <span className="muted">{fallback}</span>;
  return (
    <time dateTime={time.iso} title={time.iso}>
      {formatUnix(time)} <span className="muted">({formatRelative(time.seconds, now.seconds)})</span>
    </time>
  );
}
