import * as z from 'zod';

/*
 * Before any schema is built: zod's object schemas otherwise probe for `new Function` (to compile a fast parser),
 * which the app's Content-Security-Policy refuses (`script-src 'self'`, no 'unsafe-eval'), and Chromium reports
 * the refused probe as a `securitypolicyviolation` on every page even though zod catches it (issue 36). Without
 * eval zod parses by interpretation, as it did under the CSP anyway. `main.tsx` imports this module first, and the
 * build keeps it in the chunk that holds zod (frontend/vite.config.ts), so it runs before any contract's schema.
 */
z.config({ jitless: true });
