// The parts of Memory Studio's `--json` output the interop suite reads (docs/cli.md), typed for the assertions.
import type { BudgetReport } from '../../../shared/budget';
import type { HealthReport, Phase1Claims } from '../../../shared/health';
import type { LintReport } from '../../../shared/lint';

export interface InspectRoot {
  version: 'v1' | 'v2';
  path: string;
  files: number;
  counts: Record<string, number>;
  lint: { error: number; warning: number; info: number };
  budget: { estimatedTokens: number; truncated: boolean } | null;
}

export interface InspectJson {
  codexHome: string;
  featureMemories: boolean | null;
  memoryVersion: { version: 'v1' | 'v2'; source: 'config' | 'default' };
  activeVersions: Array<'v1' | 'v2'>;
  configDiagnostics: Array<{ severity: string; rule: string; message: string }>;
  roots: InspectRoot[];
  health: Pick<HealthReport, 'threads' | 'problems'> & {
    versions: Array<{ version: 'v1' | 'v2'; active: boolean; phase1: Phase1Claims | null }>;
  };
}

export type LintJson = LintReport[];
export type BudgetJson = BudgetReport[];
