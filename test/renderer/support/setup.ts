// Unmounts every rendered tree after each test so one test's timers and listeners never reach the next. waitFor and
// findBy* wait up to 20 s instead of Testing Library's 1 s: on a busy machine a first answer (the tokenizer loading for
// a budget) took longer than a second, and a test checks behaviour, never timing.
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

configure({ asyncUtilTimeout: 20_000 });

afterEach(() => cleanup());
