// What the wizard accepts as a project's cwd before it reaches the plan (the renderer has no node:path to ask).

/** Whether a typed cwd is absolute: POSIX `/…` or a Windows drive `X:\…` (or `X:/…`). */
export function looksAbsolute(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path);
}
