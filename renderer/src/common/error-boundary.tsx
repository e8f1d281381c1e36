// Last line of defence: a render crash shows a readable error and marks the app state, instead of a blank window.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from './error-panel';

export interface ErrorBoundaryProps {
  children: ReactNode;
}

interface ErrorBoundaryState {
  error: unknown;
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Memory Studio: the window crashed while rendering', error, info.componentStack);
    document.getElementById('root')?.setAttribute('data-app-state', 'error');
  }

  override render(): ReactNode {
    if (this.state.error === null) return this.props.children;
    return (
      <div className="main-message">
        <ErrorPanel
          title="This window ran into a problem"
          error={toStudioError(this.state.error)}
          onRetry={() => window.location.reload()}
        />
      </div>
    );
  }
}
