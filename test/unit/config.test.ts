// Codex config.toml parsing: defaults, clamps, aliases, renamed and unknown keys, syntax errors.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultMemoriesConfig, parseCodexConfig, readCodexConfig } from '../../electron/core/codex/config';
import { withTempDir } from './helpers';

describe('Codex config', () => {
  it('uses Codex defaults when config.toml is empty', () => {
    const config = parseCodexConfig('', '/x/config.toml');
    expect(config.memories).toEqual(defaultMemoriesConfig());
    expect(config.memories.maxRawMemoriesForConsolidation).toBe(256);
    expect(config.memories.maxUnusedDays).toBe(30);
    // Codex 0.169.0 uses v2 when memories.version is absent (seen running it).
    expect(config.memories.version).toBe('v2');
    expect(config.memories.versionSource).toBe('default');
    // Unset, Codex's consolidation request carries no service tier (seen with 0.171.0).
    expect(config.memories.consolidationServiceTier).toBeNull();
    expect(config.sqliteHome).toBeNull();
    expect(config.featureMemories).toBeNull();
    expect(config.diagnostics.map((d) => d.rule)).toEqual(['config/feature-off']);
  });

  it('reads the feature flag and every [memories] key', () => {
    const text = `model = "o3"\n[features]\nmemories = true\n\n[memories]\nversion = "v2"\ndual_write = true\ngenerate_memories = false\nuse_memories = false\ndedicated_tools = true\nmax_raw_memories_for_consolidation = 32\nmax_unused_days = 7\nmax_rollout_age_days = 20\nmax_rollouts_per_startup = 4\nmin_rollout_idle_hours = 12\nmin_rate_limit_remaining_percent = 40\nextract_model = "gpt-mini"\nconsolidation_model = "gpt-big"\nconsolidation_service_tier = "flex"\nno_memories_if_mcp_or_web_search = true\n`;
    const config = parseCodexConfig(text, '/x/config.toml');
    expect(config.featureMemories).toBe(true);
    expect(config.diagnostics).toEqual([]);
    expect(config.memories).toEqual({
      version: 'v2',
      versionSource: 'config',
      dualWrite: true,
      disableOnExternalContext: true,
      generateMemories: false,
      useMemories: false,
      dedicatedTools: true,
      maxRawMemoriesForConsolidation: 32,
      maxUnusedDays: 7,
      maxRolloutAgeDays: 20,
      maxRolloutsPerStartup: 4,
      minRolloutIdleHours: 12,
      minRateLimitRemainingPercent: 40,
      extractModel: 'gpt-mini',
      consolidationModel: 'gpt-big',
      consolidationServiceTier: 'flex',
    });
  });

  it.each([
    ['max_raw_memories_for_consolidation', 0, 1],
    ['max_raw_memories_for_consolidation', 100000, 4096],
    ['max_unused_days', -3, 0],
    ['max_unused_days', 999, 365],
    ['max_rollout_age_days', 500, 90],
    ['max_rollouts_per_startup', 0, 1],
    ['max_rollouts_per_startup', 1000, 128],
    ['min_rollout_idle_hours', 0, 1],
    ['min_rollout_idle_hours', 72, 48],
    ['min_rate_limit_remaining_percent', 150, 100],
  ])('clamps %s = %d to %d like Codex and says so', (key, value, expected) => {
    const config = parseCodexConfig(`[features]\nmemories = true\n[memories]\n${key} = ${value}\n`, '/x/config.toml');
    const field = Object.entries(config.memories).find(([, v]) => v === expected);
    expect(field).toBeDefined();
    const diagnostic = config.diagnostics.find((d) => d.rule === 'config/clamped');
    expect(diagnostic?.message).toContain(`Codex uses ${expected}`);
    expect(diagnostic?.line).toBe(4);
  });

  it('reports mistyped keys as errors Codex refuses, unknown and renamed keys as warnings Codex ignores', () => {
    const text = `[memories]\nmax_raw_memories_for_global = 10\nfavourite_colour = "blue"\nmax_unused_days = "ten"\nversion = "v3"\n`;
    const config = parseCodexConfig(text, '/x/config.toml');
    const rules = config.diagnostics.map((d) => `${d.severity}:${d.rule}@${d.line}`);
    // Codex 0.169.0 prints "`memories.favourite_colour` is ignored" and starts; a wrong type stops it.
    expect(rules).toContain('warning:config/renamed-key@2');
    expect(rules).toContain('warning:config/unknown-key@3');
    expect(rules).toContain('error:config/type@4');
    expect(rules).toContain('error:config/type@5');
    expect(config.memories.maxUnusedDays).toBe(30);
    expect(config.memories.version).toBe('v2');
    expect(config.memories.versionSource).toBe('default');
  });

  it('reads sqlite_home, which moves every Codex database', () => {
    expect(parseCodexConfig('sqlite_home = "~/codex-db"\n[features]\nmemories = true\n', '/x/config.toml').sqliteHome).toBe('~/codex-db');
    const wrong = parseCodexConfig('sqlite_home = 3\n', '/x/config.toml');
    expect(wrong.sqliteHome).toBeNull();
    expect(wrong.diagnostics.map((d) => `${d.rule}@${d.line}`)).toContain('config/type@1');
  });

  it('turns a TOML syntax error into a diagnostic with its line, keeping defaults', () => {
    const config = parseCodexConfig('[memories]\nmax_unused_days = = 3\n', '/x/config.toml');
    expect(config.diagnostics[0]?.rule).toBe('config/syntax');
    expect(config.diagnostics[0]?.line).toBe(2);
    expect(config.memories).toEqual(defaultMemoriesConfig());
  });

  it('accepts the older feature name memory_tool', () => {
    const config = parseCodexConfig('[features]\nmemory_tool = true\n', '/x/config.toml');
    expect(config.featureMemories).toBe(true);
    expect(config.diagnostics.map((d) => d.rule)).toEqual(['config/legacy-feature']);
  });

  it('reads a real file and reports a missing one as absent, not as an error', async () => {
    await withTempDir(async (dir) => {
      const missing = await readCodexConfig(join(dir, 'config.toml'));
      expect(missing.exists).toBe(false);
      await writeFile(join(dir, 'config.toml'), '[features]\nmemories = false\n');
      const present = await readCodexConfig(join(dir, 'config.toml'));
      expect(present.exists).toBe(true);
      expect(present.featureMemories).toBe(false);
    });
  });
});
