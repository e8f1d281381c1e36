// Whether a process id on this machine is still running (for stale locks, leases and temp files).

/** True unless the OS says there is no such process; EPERM means it exists but belongs to someone else. */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
