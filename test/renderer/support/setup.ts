// Unmounts every rendered tree after each test so one test's timers and listeners never reach the next.
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());
