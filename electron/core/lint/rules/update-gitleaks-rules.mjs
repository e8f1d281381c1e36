// Regenerates gitleaks-rules.json from a gitleaks config (config/gitleaks.toml of github.com/gitleaks/gitleaks):
// node electron/core/lint/rules/update-gitleaks-rules.mjs PATH/TO/gitleaks.toml COMMIT
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';

const [tomlPath, commit] = process.argv.slice(2);
if (!tomlPath || !commit) {
  console.error('usage: update-gitleaks-rules.mjs PATH/TO/gitleaks.toml COMMIT');
  process.exit(2);
}
const config = parse(readFileSync(tomlPath, 'utf8'));
const dropped = [];
const rules = [];
for (const rule of config.rules) {
  // Memory files are Markdown: rules tied to other file names (YAML, nuget.config, .tf, PHP) never apply to them.
  if (!rule.regex || rule.path) {
    dropped.push(rule.id);
    continue;
  }
  const allowlists = (rule.allowlists ?? [])
    .map((a) => ({
      ...(a.condition ? { condition: a.condition } : {}),
      ...(a.regexTarget ? { regexTarget: a.regexTarget } : {}),
      ...(a.regexes ? { regexes: a.regexes } : {}),
      ...(a.stopwords ? { stopwords: a.stopwords } : {}),
    }))
    .filter((a) => a.regexes || a.stopwords);
  rules.push({
    id: rule.id,
    description: rule.description,
    regex: rule.regex,
    ...(rule.secretGroup ? { secretGroup: rule.secretGroup } : {}),
    ...(rule.entropy ? { entropy: rule.entropy } : {}),
    keywords: rule.keywords ?? [],
    ...(allowlists.length ? { allowlists } : {}),
  });
}
const here = dirname(fileURLToPath(import.meta.url));
const out = {
  source: `gitleaks config/gitleaks.toml at commit ${commit} (https://github.com/gitleaks/gitleaks), MIT licence: see LICENSE-gitleaks.txt`,
  // Shipped inside the data, so the packaged app (which carries out/ only) keeps the notice the MIT licence asks for.
  licence: readFileSync(join(here, 'LICENSE-gitleaks.txt'), 'utf8'),
  dropped,
  allowlist: { regexes: config.allowlist?.regexes ?? [], stopwords: config.allowlist?.stopwords ?? [] },
  rules,
};
writeFileSync(join(here, 'gitleaks-rules.json'), JSON.stringify(out, null, 1) + '\n');
console.log(`${rules.length} rules written, ${dropped.length} dropped (${dropped.join(', ')})`);
