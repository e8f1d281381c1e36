// Renderer entry: styles, the query client (events drive freshness), error boundary, and the app.
// zod-jitless first: it has to run before any module that builds zod schemas is evaluated.
import './zod-jitless';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { LeaveDemoProvider } from './common/demo-exit';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { shouldRetry } from './api/studio-request-error';
import { App } from './app';
import { ErrorBoundary } from './common/error-boundary';
import './styles/theme.css';
import './styles/controls.css';
import './styles/layout.css';
import './styles/tree.css';
import './styles/navigation.css';
import './styles/file-panels.css';
import './styles/budget.css';
import './styles/session.css';
import './styles/pages.css';
import './styles/cards.css';
import './styles/review.css';
import './styles/conflicts.css';
import './styles/review-view.css';
import './styles/search.css';
import './styles/doctor.css';
import './styles/sync.css';
import './styles/coverage.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: shouldRetry,
      // Host events invalidate what changed on disk; refetching on focus would only repeat that work.
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
    mutations: { retry: false },
  },
});

const container = document.getElementById('root');
if (!container) throw new Error('index.html lost its #root element');

createRoot(container).render(
  <StrictMode>
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <LeaveDemoProvider>
          <App />
        </LeaveDemoProvider>
      </QueryClientProvider>
    </ErrorBoundary>
  </StrictMode>,
);
