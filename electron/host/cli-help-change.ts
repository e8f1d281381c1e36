// Each command's own help: the commands that make, list, show and apply proposals, import, repair and sync.
import { DATA, HOME, JSON_OUT, PLAIN_EXITS, VERSION, type CommandHelp } from './cli-help-read';

const PROPOSES = '0 proposed (its id printed), 1 failed, 2 wrong usage.';
const APPLIES = '0 applied, 1 failed, 2 conflict or wrong usage (nothing written), 3 Codex holds its lock.';

const REVIEW: Record<string, CommandHelp> = {
  propose: {
    usage: [
      'memory-studio propose --codex-home DIR [--version v1|v2] --file REL --content-file F [--file REL --content-file F ...] [--title T] [--json]',
    ],
    about:
      'Turns an edit of memory files into one proposal (nothing is written yet); prints its id. Repeat --file and --content-file, in pairs, for several files.',
    options: [
      HOME,
      DATA,
      VERSION,
      ['--file REL', 'a file inside the memory root (repeatable)'],
      ['--content-file F', 'its complete new content (one for each --file, in the same order)'],
      ['--title T', 'the title'],
      JSON_OUT,
    ],
    exits: PROPOSES,
    example: 'memory-studio propose --codex-home ~/.codex --file MEMORY.md --content-file edited.md',
  },
  note: {
    usage: ['memory-studio note --codex-home DIR [--version v1|v2] --slug S --text-file F [--json]'],
    about: 'A new ad-hoc note (extensions/ad_hoc/notes/) as a proposal; prints its id.',
    options: [HOME, DATA, VERSION, ['--slug S', 'a word for the note file name'], ['--text-file F', 'the note'], JSON_OUT],
    exits: PROPOSES,
    example: 'memory-studio note --codex-home ~/.codex --slug deploys --text-file note.txt',
  },
  redact: {
    usage: ['memory-studio redact --codex-home DIR [--version v1|v2] [--file REL] [--json]'],
    about: 'Every secret of one file (or of every Markdown file of the root) replaced with [REDACTED_SECRET], as one proposal.',
    options: [HOME, DATA, VERSION, ['--file REL', 'one file only'], JSON_OUT],
    exits: PROPOSES,
    example: 'memory-studio redact --codex-home ~/.codex --file MEMORY.md',
  },
  forget: {
    usage: ['memory-studio forget THREAD_ID [--codex-home DIR] [--json]'],
    about: '"Forget this session" as Codex does it, as a proposal to review and apply; prints its id.',
    options: [HOME, DATA, JSON_OUT],
    exits: PROPOSES,
    example: 'memory-studio forget 019a0000-0000-7000-8000-000000000000 --codex-home ~/.codex',
  },
  proposals: {
    usage: ['memory-studio proposals [--status pending|applied|rejected|superseded|all] [--data-dir DIR] [--json]'],
    about: 'Lists the proposals of the data folder, newest first: id, age, source, files, hunks decided of total, title.',
    options: [['--status S', 'pending (the default), applied, rejected, superseded or all'], DATA, JSON_OUT],
    exits: PLAIN_EXITS,
    example: 'memory-studio proposals --status all',
  },
  show: {
    usage: ['memory-studio show ID [--data-dir DIR] [--json]'],
    about: 'The proposal: its files and the diff of each hunk (- and + lines), hunk ids beside each hunk, conflicts marked.',
    options: [DATA, ['--codex-home DIR', 'only to check: the proposal knows its home'], JSON_OUT],
    exits: PLAIN_EXITS,
    example: 'memory-studio show p-1a2b3c4d5e6f',
  },
  rebase: {
    usage: ['memory-studio rebase ID [--data-dir DIR] [--json]'],
    about: 'Merges what changed on disk into the proposal (three-way); conflicts are listed with their hunk ids.',
    options: [DATA, JSON_OUT],
    exits: '0 merged cleanly, 2 conflicts remain (listed), 1 failed.',
    example: 'memory-studio rebase p-1a2b3c4d5e6f',
  },
  apply: {
    usage: ['memory-studio apply ID [--accept all | --accept HUNK_ID,...] [--resolve HUNK=theirs|ours|both,...] [--json]'],
    about: "Writes the accepted hunks atomically under Codex's lock. Undecided hunks must be decided first (--accept).",
    options: [
      ['--accept all|HUNK_ID,...', 'accept these change hunks (the others are rejected); never resolves a conflict'],
      ['--resolve HUNK=theirs|ours|both,...', 'resolve conflict hunks'],
      DATA,
      JSON_OUT,
    ],
    exits: APPLIES,
    example: 'memory-studio apply p-1a2b3c4d5e6f --accept all',
  },
  history: {
    usage: ['memory-studio history [--file REL] [--version v1|v2] [--codex-home DIR] [--json]'],
    about: 'The applied changes (and changes Codex made while the app watched), newest first.',
    options: [HOME, DATA, ['--file REL', 'one file only'], VERSION, JSON_OUT],
    exits: PLAIN_EXITS,
    example: 'memory-studio history --codex-home ~/.codex --file MEMORY.md',
  },
  revert: {
    usage: ['memory-studio revert ENTRY_ID [--codex-home DIR] [--json]'],
    about: 'A new proposal that undoes one history entry (review and apply it to revert).',
    options: [HOME, DATA, JSON_OUT],
    exits: PROPOSES,
    example: 'memory-studio revert h-1a2b3c4d5e6f --codex-home ~/.codex',
  },
};

const CURATE: Record<string, CommandHelp> = {
  consolidate: {
    usage: [
      'memory-studio consolidate [--codex-home DIR] [--version v1|v2] [--engine builtin|codex|openai] [--model M] [--preview] [--json]',
    ],
    about: "Runs a consolidation in a staging copy and prints the proposal id of the result; --preview prints Codex's phase-2 inputs.",
    options: [
      HOME,
      DATA,
      VERSION,
      ['--engine E', 'builtin, codex or openai'],
      ['--model M', 'the model'],
      ['--preview', 'inputs only'],
      JSON_OUT,
    ],
    exits: '0 done, 1 failed, 2 wrong usage, 3 Codex holds its lock, 130 cancelled.',
    example: 'memory-studio consolidate --codex-home ~/.codex --preview',
  },
  import: {
    usage: [
      'memory-studio import --from claude|cursor [--source-home DIR] [--project KEY,...] [--repo DIR,...] [--cursor-db FILE]',
      '                     [--cwd KEY=DIR ...] [--keep-removed] (--plan | --apply) (--redact-secrets | --skip-secret-files) [--json]',
      'memory-studio import --from bundle --bundle FILE (--plan | --apply) [--codex-home DIR] [--json]',
    ],
    about: "Imports Claude Code's or Cursor's memory (or an export bundle): --plan shows it, --apply proposes, accepts and applies it.",
    options: [
      ['--from claude|cursor|bundle', 'where from'],
      ['--plan', 'print what would be imported; nothing is written'],
      ['--apply', 'import it (needs --redact-secrets or --skip-secret-files)'],
      ['--redact-secrets', 'replace each secret found with [REDACTED_SECRET]'],
      ['--skip-secret-files', 'leave out every file holding a secret'],
      ['--source-home DIR', "the agent's home (else its usual one)"],
      ['--project KEY,...', 'only these projects'],
      ['--cwd KEY=DIR', 'the folder a project is in now, when moved or unknown here (repeatable)'],
      ['--repo DIR,...', 'repositories to read (Cursor rules, CLAUDE.md)'],
      ['--cursor-db FILE', "Cursor's state DB"],
      ['--keep-removed', 'keep files the source no longer has'],
      ['--bundle FILE', 'the .tar.gz "memory-studio export" wrote'],
      HOME,
      DATA,
      JSON_OUT,
    ],
    exits: APPLIES,
    example: 'memory-studio import --from claude --codex-home ~/.codex --plan',
  },
  doctor: {
    usage: [
      'memory-studio doctor [--codex-home DIR] [--version v1|v2] [--project DIR ...] [--stale-days N] [--kind K,...] [--json]',
      'memory-studio doctor --fix ID|GROUP_ID [--project DIR] [--json]',
    ],
    about: 'Duplicates, overlaps with AGENTS.md / CLAUDE.md, stale and oversize entries; --fix turns one fix into a proposal.',
    options: [
      HOME,
      DATA,
      VERSION,
      ['--project DIR', 'a project whose AGENTS.md / CLAUDE.md to compare (repeatable)'],
      ['--stale-days N', 'entries older than N days are stale (1 to 3650)'],
      ['--kind K,...', 'only these kinds of finding'],
      ['--fix ID', 'one fix (<finding id>.merge, .retire, .promote, .forget) or a group id, as a proposal'],
      JSON_OUT,
    ],
    exits: PLAIN_EXITS,
    example: 'memory-studio doctor --codex-home ~/.codex --project ~/src/app',
  },
  promote: {
    usage: ['memory-studio promote (ENTRY_ID | --file MEMORY.md|memory_summary.md --line N) [--version v1|v2] [--project DIR] [--json]'],
    about: "Moves an entry into its project's AGENTS.md: the rule added there and the entry removed, in one proposal.",
    options: [
      HOME,
      DATA,
      VERSION,
      ['--file F --line N', 'the entry at this line instead of its id'],
      ['--project DIR', 'the project folder'],
      JSON_OUT,
    ],
    exits: PROPOSES,
    example: 'memory-studio promote m-1a2b3c4d5e6f --project ~/src/app',
  },
  sync: {
    usage: [
      'memory-studio sync init --remote URL [--machine NAME | --person NAME] [--scope project=DIR] [--take-over] [--json]',
      'memory-studio sync (push | pull | status) [--codex-home DIR] [--json]',
    ],
    about: 'Curated memory through a git remote: push publishes, pull proposes what other machines published.',
    options: [
      ['--remote URL', 'any git URL your git can reach (init)'],
      ['--machine NAME | --person NAME', 'the name to publish under (init)'],
      ['--scope project=DIR', 'publish only the entries of that project (init)'],
      ['--take-over', 'take over a name another machine used (init)'],
      HOME,
      DATA,
      JSON_OUT,
    ],
    exits: '0 done, 1 failed, 2 wrong usage, 4 a file held back for a possible secret (push).',
    example: 'memory-studio sync init --remote git@example.com:me/memory.git --machine laptop',
  },
  export: {
    usage: ['memory-studio export --out FILE [--codex-home DIR] [--version v1|v2] [--json]'],
    about: 'Every file of the memory root into one .tar.gz with a manifest of SHA-256s.',
    options: [['--out FILE', 'the .tar.gz to write (outside the Codex home)'], HOME, DATA, VERSION, JSON_OUT],
    exits: '0 written, 1 failed, 2 wrong usage, 4 a file held back for a possible secret.',
    example: 'memory-studio export --out memory.tar.gz --codex-home ~/.codex',
  },
};

export const CHANGE_HELP: Record<string, CommandHelp> = { ...REVIEW, ...CURATE };
