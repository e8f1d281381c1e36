// Citations for "not cited" come from the host's index when it keeps one: the same findings as reading the sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../../shared/doctor';
import { runDoctor } from '../../../electron/core/doctor';
import { inspectHome } from '../../../electron/core/codex/home';
import { openGeneratedHome, type GeneratedHomeService } from '../helpers';

let home: GeneratedHomeService;

beforeAll(async () => {
  home = await openGeneratedHome({ scale: 'small', version: 'both', seed: 16, git: false });
}, 120_000);

afterAll(async () => {
  await home?.dispose();
});

const staleReasons = (report: DoctorReport) =>
  report.findings
    .filter((f) => f.kind === 'stale')
    .map((f) => [f.id, f.evidence.kind === 'stale' ? f.evidence.reasons.map((r) => r.reason).sort() : []] as const)
    .sort(([a], [b]) => a.localeCompare(b));

describe('where the doctor reads citations', () => {
  it('the service (index on) and a direct run over the sessions judge the same entries not cited', async () => {
    const viaService = await home.service.call('doctor.run', { staleDays: 30 });
    // The run refreshed the index (the doctor asked it for the citations), so it is there and not off.
    expect((await home.service.call('index.status', {})).state).toBe('ready');
    const direct = await runDoctor(await inspectHome({ codexHome: home.manifest.codexHome, source: 'flag' }), {
      staleDays: 30,
      now: viaService.generatedAt,
    });
    expect(staleReasons(viaService)).toEqual(staleReasons(direct));
    expect(staleReasons(direct).some(([, reasons]) => reasons.includes('not-cited'))).toBe(true);
  });
});
