// Realistic projects and task templates (Dana's repositories) that demo threads are drawn from.
import { appTasks } from './tasks-apps';
import { opsTasks } from './tasks-ops';
import type { Project, TaskTemplate } from './types';

const SRC = '/home/dana/src';

export const projects: readonly Project[] = [
  { key: 'invoice-svc', name: 'invoice-svc', cwd: `${SRC}/invoice-svc`, origin: 'git@github.com:dana/invoice-svc.git', language: 'Python' },
  { key: 'webapp', name: 'webapp', cwd: `${SRC}/webapp`, origin: 'git@github.com:dana/webapp.git', language: 'TypeScript' },
  { key: 'tiles-rs', name: 'tiles-rs', cwd: `${SRC}/tiles-rs`, origin: 'git@github.com:dana/tiles-rs.git', language: 'Rust' },
  { key: 'infra', name: 'infra', cwd: `${SRC}/infra`, origin: 'git@github.com:dana/infra.git', language: 'Terraform' },
  {
    key: 'data-pipeline',
    name: 'data-pipeline',
    cwd: `${SRC}/data-pipeline`,
    origin: 'git@github.com:dana/data-pipeline.git',
    language: 'Python',
  },
  { key: 'dotfiles', name: 'dotfiles', cwd: `${SRC}/dotfiles`, origin: 'git@github.com:dana/dotfiles.git', language: 'Shell' },
];

// The templates live in two files by kind of repository, in catalog order: seeded draws depend on that order.
export const tasks: readonly TaskTemplate[] = [...appTasks, ...opsTasks];

/** Templates by project key, in catalog order. */
export function tasksForProject(projectKey: string): TaskTemplate[] {
  return tasks.filter((t) => t.project === projectKey);
}

export function projectByKey(key: string): Project {
  const found = projects.find((p) => p.key === key);
  if (!found) throw new Error(`unknown demo project ${key}`);
  return found;
}

/** Errors a failed stage-1 job records (`jobs.last_error`). */
export const stage1Errors: readonly string[] = [
  'stage-1 model output exceeded the context window',
  'stage-1 sampling failed: stream disconnected before completion',
  'invalid stage-1 output: missing field `rollout_summary`',
];

/** Replace `{n}` with the ticket number. */
export function fill(text: string, ticket: number): string {
  return text.split('{n}').join(String(ticket));
}
