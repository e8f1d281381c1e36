// The way out of a demo home: wherever the demo is badged, a button back to the home the app started with.
import { createContext, useContext, type ReactNode } from 'react';
import type { HomeInfo } from '../../../shared/domain';
import { useStudioMutation } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from './error-panel';

type LeaveDemo = ReturnType<typeof useStudioMutation<'home.leaveDemo'>>;

const LeaveDemoContext = createContext<LeaveDemo | null>(null);

/**
 * One `home.leaveDemo` for the top bar, the sidebar and the palette: one pending state (no second press while the
 * first runs) and one error, shown beside the top bar's button whichever of them asked.
 */
export function LeaveDemoProvider({ children }: { children: ReactNode }) {
  const leave = useStudioMutation('home.leaveDemo');
  return <LeaveDemoContext.Provider value={leave}>{children}</LeaveDemoContext.Provider>;
}

export function useLeaveDemo(): LeaveDemo {
  const leave = useContext(LeaveDemoContext);
  if (!leave) throw new Error('useLeaveDemo needs a LeaveDemoProvider above it (main.tsx puts one around the app).');
  return leave;
}

/**
 * Leaves the demo (`home.leaveDemo`). The host keeps the demo for every window until this is pressed, so a reload
 * stays in the demo; the button is then right next to the badge. Its effects refetch every answer of the other home.
 */
export function LeaveDemoButton({ home, testId, compact = false }: { home: HomeInfo | undefined; testId: string; compact?: boolean }) {
  const leave = useLeaveDemo();
  if (!home?.isDemo || home.returnHome === null) return null;
  const returnHome = home.returnHome;
  return (
    <>
      <button
        type="button"
        className={`button button-small${compact ? '' : ' button-primary'}`}
        data-testid={testId}
        title={`Leave the demo and show ${returnHome} again`}
        onClick={() => leave.mutate({})}
        disabled={leave.isPending}
      >
        {leave.isPending ? 'Returning…' : 'Return to your home'}
      </button>
      {leave.error && !compact ? <ErrorPanel compact error={toStudioError(leave.error)} onRetry={() => leave.mutate({})} /> : null}
    </>
  );
}

/** The top bar's demo marker: the badge, the home it replaced, and the way back. */
export function DemoBar({ home }: { home: HomeInfo | undefined }) {
  if (!home?.isDemo) return null;
  return (
    <div className="demo-bar" data-testid="demo-bar" role="status">
      <span className="badge badge-demo" title="A generated home with sample memories; your own home is not touched">
        Demo home
      </span>
      {home.returnHome !== null ? (
        <span className="demo-bar-return muted" title={home.returnHome}>
          instead of <code>{home.returnHome}</code>
        </span>
      ) : null}
      <LeaveDemoButton home={home} testId="leave-demo" />
    </div>
  );
}
