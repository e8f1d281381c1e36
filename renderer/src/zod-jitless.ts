// Must be the first import of the entry: turns off zod's eval-based fast path before any schema is built.
import { config } from 'zod';

/**
 * zod 4 probes `new Function('')` when a schema is constructed (module load of shared/). Under our CSP
 * (no 'unsafe-eval') the probe throws and is caught, but Chromium still reports a CSP violation on the
 * console, which end-to-end tests rightly treat as a failure. jitless skips the probe; parsing is unchanged.
 */
config({ jitless: true });
