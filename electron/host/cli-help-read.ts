// Each command's own help (`memory-studio help CMD`, `CMD --help`): the hosts and the read-only commands.
// The review, import and repair commands are in cli-help-change.ts; cli-help.ts formats them.

/** One command's help: its usage lines, what it does, its options, its exit codes and an example to paste. */
export interface CommandHelp {
  usage: string[];
  about: string;
  options: Array<[flag: string, what: string]>;
  exits: string;
  example: string;
}

export const HOME: [string, string] = ['--codex-home DIR', 'the Codex home (else $CODEX_HOME, else ~/.codex)'];
export const DATA: [string, string] = ['--data-dir DIR', 'the Studio data folder (else $MEMORY_STUDIO_DATA, else the app-data folder)'];
export const VERSION: [string, string] = ['--version v1|v2', 'one memory root (default: every root present)'];
export const JSON_OUT: [string, string] = ['--json', 'JSON on stdout, failures too ({ "ok": false, "error" })'];
export const PLAIN_EXITS = '0 done, 1 failed (the message says why), 2 wrong usage.';

const ENGINE: Array<[string, string]> = [
  ['--codex-command PATH', 'the codex binary the codex engine runs'],
  ['--openai-base-url URL', 'the OpenAI-compatible endpoint of the openai engine'],
  ['--openai-key-env NAME', 'the environment variable holding its API key'],
  ['--engine-settings FILE', 'engine settings from a JSON file'],
  ['--embeddings-base-url URL|off', 'the embeddings endpoint for related-entry search, or off'],
  ['--embeddings-model M', 'its model'],
  ['--embeddings-key-env NAME', 'the environment variable holding its key'],
];

const HOSTS: Record<string, CommandHelp> = {
  start: {
    usage: ['memory-studio start [--codex-home DIR] [--data-dir DIR] [--demo] [--serve] [--port N]'],
    about: 'Opens the desktop app; where Electron cannot start (no binary, no display) serves the same UI and prints its URL.',
    options: [
      HOME,
      DATA,
      ['--demo', 'open the demo home (generated into the data folder on first use)'],
      ['--serve', 'skip Electron: serve the UI for a browser'],
      ['--port N', 'the port to serve on (default: a free one)'],
      ['--import-source DIR', 'a folder the page may import from (repeatable)'],
      ...ENGINE,
    ],
    exits: '0 closed, 1 failed, 2 wrong usage.',
    example: 'memory-studio start --demo',
  },
  serve: {
    usage: ['memory-studio serve [--codex-home DIR] [--port N] [--data-dir DIR] [--demo] [--import-source DIR ...]'],
    about: 'Serves the UI and its API on 127.0.0.1 only, behind a random token carried in the URL it prints; Ctrl+C stops.',
    options: [
      HOME,
      DATA,
      ['--port N', 'the port (0 to 65535; default: a free one)'],
      ['--demo', 'serve the demo home'],
      ['--import-source DIR', 'a folder the page may import from (repeatable)'],
      ...ENGINE,
    ],
    exits: '0 stopped, 1 failed, 2 wrong usage.',
    example: 'memory-studio serve --codex-home ~/.codex --port 4173',
  },
  'demo-home': {
    usage: ['memory-studio demo-home DIR [--scale small|heavy] [--version v1|v2|both] [--seed N] [--data-dir DIR] [--json]'],
    about: 'Writes a realistic generated Codex home (memory files, SQLite state, sessions) into DIR, a new or empty folder.',
    options: [
      ['--scale small|heavy', 'how big (default small)'],
      ['--version v1|v2|both', 'which memory roots (default both)'],
      ['--seed N', 'a whole number: the same seed writes the same home (default 1)'],
      ['--data-dir DIR', 'the data folder the printed start command opens it with'],
      ['--json', 'print the manifest as JSON'],
    ],
    exits: PLAIN_EXITS,
    example: 'memory-studio demo-home /tmp/demo-home --scale small',
  },
};

const READ: Record<string, CommandHelp> = {
  inspect: {
    usage: ['memory-studio inspect [--codex-home DIR] [--version v1|v2] [--json]'],
    about: 'Overview: files, lint, what the next session sees, usage, pipeline health.',
    options: [HOME, DATA, VERSION, JSON_OUT],
    exits: PLAIN_EXITS,
    example: 'memory-studio inspect --codex-home ~/.codex',
  },
  lint: {
    usage: ['memory-studio lint [--codex-home DIR] [--version v1|v2] [--json]'],
    about: "Codex's own validators, the templates' rules, secrets, stale entries.",
    options: [HOME, DATA, VERSION, JSON_OUT],
    exits: '0 no error, 1 a finding of severity error (or a failure), 2 wrong usage.',
    example: 'memory-studio lint --codex-home ~/.codex --version v2',
  },
  secrets: {
    usage: ['memory-studio secrets [--codex-home DIR] [--version v1|v2] [--json]'],
    about: "Scans every memory file for secrets (Codex's patterns, gitleaks' rules, bare keys), printed masked.",
    options: [HOME, DATA, VERSION, JSON_OUT],
    exits: '0 none found, 1 a secret found (or a failure), 2 wrong usage.',
    example: 'memory-studio secrets --codex-home ~/.codex',
  },
  budget: {
    usage: ['memory-studio budget [--codex-home DIR] [--version v1|v2] [--limit N] [--text] [--json]'],
    about: 'Exactly what Codex injects from memory_summary.md, and which lines it cuts.',
    options: [
      HOME,
      DATA,
      VERSION,
      ['--limit N', "the token limit (default: Codex's)"],
      ['--text', 'print the injected text itself'],
      JSON_OUT,
    ],
    exits: PLAIN_EXITS,
    example: 'memory-studio budget --codex-home ~/.codex --text',
  },
  coverage: {
    usage: [
      'memory-studio coverage [--codex-home DIR] [--version v1|v2] [--since DAYS] [--json]',
      'memory-studio coverage --retry THREAD_ID | --reclaim [--codex-home DIR] [--version v1|v2] [--json]',
    ],
    about: "Every session Codex knows and how far its memory pipeline took it; --retry and --reclaim propose a repair of Codex's jobs.",
    options: [
      HOME,
      DATA,
      VERSION,
      ['--since DAYS', 'only sessions of the last DAYS days (1 to 36500)'],
      ['--retry THREAD_ID', 'propose making a failed or exhausted extraction claimable again'],
      ['--reclaim', 'propose setting a stuck consolidation job pending'],
      JSON_OUT,
    ],
    exits: PLAIN_EXITS,
    example: 'memory-studio coverage --codex-home ~/.codex --since 7',
  },
  search: {
    usage: ['memory-studio search QUERY [--codex-home DIR] [--version v1|v2] [--kind K] [--project P] [--limit N] [--json]'],
    about: 'Ranked full-text search (BM25) over every memory file: version, path, line, score and the matching line.',
    options: [
      HOME,
      DATA,
      VERSION,
      ['--kind K', 'one kind of memory file (memory_md, memory_summary, ...)'],
      ['--project P', 'entries of one project only'],
      ['--limit N', 'at most N hits (1 to 500)'],
      JSON_OUT,
    ],
    exits: PLAIN_EXITS,
    example: 'memory-studio search "flaky test" --codex-home ~/.codex --limit 5',
  },
  keep: {
    usage: ['memory-studio keep [--codex-home DIR] [--data-dir DIR] [--verbose]'],
    about:
      "Keeps the home's index fresh until Ctrl+C and answers inspect, lint, budget, search and doctor's report on that home for the CLI.",
    options: [HOME, DATA, ['--verbose', 'log each answered command']],
    exits: '0 stopped, 1 failed, 2 wrong usage.',
    example: 'memory-studio keep --codex-home ~/.codex',
  },
  mcp: {
    usage: [
      'memory-studio mcp [--codex-home DIR] [--version v1|v2] [--data-dir DIR] [--read-only] [--max-proposals-per-hour N]',
      'memory-studio mcp --install codex|claude|cursor [--codex-home DIR] [--data-dir DIR] [--json]',
    ],
    about: "An MCP server on stdin/stdout for Codex, Claude Code or Cursor; --install adds it to that agent's configuration as a proposal.",
    options: [
      HOME,
      DATA,
      VERSION,
      ['--read-only', 'no memory_propose tool'],
      ['--max-proposals-per-hour N', 'cap on proposals per client (1 to 10000)'],
      ['--install codex|claude|cursor', 'propose adding this server to that agent'],
      JSON_OUT,
    ],
    exits: PLAIN_EXITS,
    example: 'memory-studio mcp --install codex --codex-home ~/.codex',
  },
  parse: {
    usage: ['memory-studio parse FILE [--kind K] [--json]'],
    about: 'Parses one memory file (or a Claude Code memory file, or a session .jsonl) and prints its structure and diagnostics.',
    options: [['--kind K', 'parse as this kind instead of guessing from the name'], JSON_OUT],
    exits: '0 no error, 1 a diagnostic of severity error (or a failure), 2 wrong usage.',
    example: 'memory-studio parse ~/.codex/memories/MEMORY.md',
  },
};

export const READ_HELP: Record<string, CommandHelp> = { ...HOSTS, ...READ };
