// The `memory-studio` usage text, in a module of its own so `--help` loads nothing else.

export const USAGE = `Memory Studio: see, review and curate what Codex CLI remembers.

Usage:
  memory-studio start [--codex-home DIR] [--data-dir DIR] [--demo] [--serve] [--port N]
      Opens the desktop app. Where Electron cannot start (no binary, no display), serves the
      same UI on 127.0.0.1 and prints its URL. --serve skips Electron.
  memory-studio serve [--codex-home DIR] [--port N] [--data-dir DIR] [--demo]
                      [--codex-command PATH] [--openai-base-url URL] [--openai-key-env NAME] [--engine-settings FILE]
                      [--embeddings-base-url URL|off] [--embeddings-model M] [--embeddings-key-env NAME]
                      [--import-source DIR ...]
      Serves the UI and its API on 127.0.0.1 only, behind a random token carried in the URL. The codex command,
      the base URL and the API key variable are set only by these flags (start takes them too), never by the page;
      --import-source names a folder the page may import from besides the detected Claude and Cursor homes
      (repositories inside it too; otherwise only those Codex has run in).
  memory-studio demo-home DIR [--scale small|heavy] [--version v1|v2|both] [--seed N] [--data-dir DIR] [--json]
      Writes a realistic generated Codex home (memory files, SQLite state, sessions) into DIR.
  memory-studio inspect [--codex-home DIR] [--version v1|v2] [--json]
      Overview: files, lint, what the next session sees, usage, pipeline health.
  memory-studio lint [--codex-home DIR] [--version v1|v2] [--json]
      Codex's own validators, the templates' rules, secrets, stale entries. Exit code 1 on any error.
  memory-studio secrets [--codex-home DIR] [--version v1|v2] [--json]
      Scans every memory file for secrets (Codex's patterns, gitleaks' rules, bare keys), masked. Exit 1 on any.
  memory-studio budget [--codex-home DIR] [--version v1|v2] [--limit N] [--text] [--json]
      Exactly what Codex injects from memory_summary.md, and which lines it cuts.
  memory-studio coverage [--codex-home DIR] [--version v1|v2] [--since DAYS] [--json]
      Every session Codex knows and how far its memory pipeline took it: not eligible (and why), waiting,
      extracting, failed, exhausted, extracted, selected; the failed ones and when Codex retries them, the
      sessions aging out soonest, the consolidation job's state, and the repairs to propose.
  memory-studio coverage --retry THREAD_ID | --reclaim [--codex-home DIR] [--data-dir DIR] [--version v1|v2] [--json]
      Proposes a repair (nothing changes until it is applied): a failed or exhausted extraction made claimable
      again, or a consolidation job stuck running or backing off set pending. Each is one row of Codex's jobs
      table, before → after, applied only if Codex has not changed it since; revertible from the history.
  memory-studio search QUERY [--codex-home DIR] [--version v1|v2] [--kind K] [--project P] [--limit N] [--json]
      Ranked full-text search (BM25) over every memory file: version, path, line, score and the matching line.
  memory-studio keep [--codex-home DIR] [--data-dir DIR] [--verbose]
      Keeps the home's index fresh from file events until Ctrl+C, and answers inspect, lint, budget, search and
      doctor (the report; --fix runs by itself) on that home for the CLI (the same answers, without the stat pass).
      MEMORY_STUDIO_NO_KEEPER=1 bypasses it.
  memory-studio mcp [--codex-home DIR] [--version v1|v2] [--data-dir DIR] [--read-only] [--max-proposals-per-hour N]
                    [--embeddings-base-url URL|off] [--embeddings-model M] [--embeddings-key-env NAME]
      An MCP server on stdin/stdout for Codex, Claude Code or Cursor: memory_search, memory_read, memory_overview,
      memory_provenance and (unless --read-only) memory_propose, which files a proposal for you to review.
  memory-studio mcp --install codex|claude|cursor [--codex-home DIR] [--data-dir DIR] [--json]
      Adds this server to that agent's own MCP configuration, as a proposal (prints its id; nothing is written
      until it is applied). Every other entry of the file stays byte for byte.
  memory-studio parse FILE [--kind K] [--json]
      Parses one memory file (or a Claude Code memory file) and prints its structure and diagnostics.
  memory-studio propose --codex-home DIR [--version v1|v2] --file REL --content-file F [--title T] [--json]
  memory-studio note --codex-home DIR [--version v1|v2] --slug S --text-file F [--json]
      Turn an edit, or a new ad-hoc note, into a proposal (nothing is written yet); prints its id.
  memory-studio redact --codex-home DIR [--version v1|v2] [--file REL] [--json]
      Every secret of one file (--file) or of every Markdown file of the root, replaced with [REDACTED_SECRET],
      as one proposal (nothing is written yet); prints its id.
  memory-studio forget THREAD_ID [--codex-home DIR] [--json]
      "Forget this session" as Codex does it (its stage-1 output and job removed, memory_mode disabled):
      a proposal to review and apply like any other; prints its id.
  memory-studio proposals [--status pending|applied|rejected|superseded|all] [--json]
      The proposals (default: pending), newest first: id, age, source, files, hunks decided of total, title.
  memory-studio show ID [--json]
      The proposal's files and the diff of each hunk, with hunk ids; conflict hunks are marked.
  memory-studio rebase ID [--json]
      Merges what changed on disk into the proposal (three-way). Exit 0 merged cleanly, 2 conflicts remain (listed).
  memory-studio apply ID [--accept all | --accept HUNK_ID,...] [--resolve HUNK=theirs|ours|both,...] [--json]
      Writes the accepted hunks atomically under Codex's lock; undecided hunks are refused (decide them with
      --accept); --accept never resolves a conflict.
      Exit 0 applied, 2 conflict (changed on disk, or a conflict unresolved: nothing written), 3 locked, 1 error.
  memory-studio history [--file REL] [--version v1|v2] [--json]
  memory-studio revert ENTRY_ID [--json]
      The applied changes, and a new proposal that undoes one of them.
  memory-studio consolidate [--codex-home DIR] [--version v1|v2] [--engine builtin|codex|openai] [--model M] [--preview] [--json]
      --preview prints Codex's phase-2 inputs; otherwise runs the engine in a staging copy and prints the
      proposal id of the result (nothing is written until it is applied). Exit 0, 1 failed, 3 locked, 130 cancelled.
  memory-studio import --from claude|cursor [--source-home DIR] [--codex-home DIR] [--project KEY,...] [--repo DIR,...]
                       [--cursor-db FILE] [--cwd KEY=DIR ...] [--keep-removed] (--plan [--redact-secrets | --skip-secret-files] | --apply (--redact-secrets | --skip-secret-files)) [--json]
      --plan prints projects, files (new, changed, unchanged), skipped entries with reasons and secret findings with line
      numbers, and what --apply would do; --cwd KEY=DIR gives a project whose folder moved or is unknown here its folder;
      --apply proposes the import, accepts it and applies it under Codex's lock. Exit 0, 2 conflict, 3 locked, 1 error.
  memory-studio doctor [--codex-home DIR] [--version v1|v2] [--project DIR ...] [--stale-days N] [--kind K,...] [--json]
  memory-studio doctor --fix ID|GROUP_ID [--project DIR] [--json]
      Duplicates, overlaps with AGENTS.md / CLAUDE.md, stale and oversize entries, each with a stable id and the
      text that triggered it. --fix turns one fix (merge, retire, promote, forget) into a proposal; prints its id.
  memory-studio promote (ENTRY_ID | --file MEMORY.md|memory_summary.md --line N) [--version v1|v2] [--project DIR] [--json]
      Moves an entry into its project's AGENTS.md: the rule added there, the entry removed, in one proposal.
  memory-studio sync init --remote URL [--machine NAME | --person NAME] [--scope project=DIR] [--take-over] [--json]
  memory-studio sync (push | pull | status) [--codex-home DIR] [--json]
      Curated memory through a git remote (your git, your credentials): push publishes the root Codex reads to
      machines/<name>/ (a file with a possible secret is held back: exit 4); pull proposes what other machines
      published as an import into extensions/external_agent_import/resources/sync-*/ and prints its id.
  memory-studio export --out FILE [--codex-home DIR] [--version v1|v2] [--json]
  memory-studio import --from bundle --bundle FILE (--plan | --apply) [--codex-home DIR] [--json]
      Every file of the memory root into one .tar.gz with a manifest of SHA-256s (a possible secret is held back: exit 4);
      import checks every member and hash, then applies it into extensions/external_agent_import/resources/sync-bundle-*/.
  (All of these take --data-dir DIR. inspect, lint, budget, search and doctor keep an index of the home in the
  data folder: the first run reads every file, later runs only what changed.)

Where things are:
  Codex home   --codex-home, else $CODEX_HOME, else ~/.codex (SQLite: $CODEX_SQLITE_HOME, else the home)
  Studio data  --data-dir, else $MEMORY_STUDIO_DATA, else the platform's app-data folder`;
