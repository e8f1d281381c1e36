// What every domain's handlers share: the current home (inspected or cached), root paths, options, events.
import type { CallerPaths } from './caller-paths';
import type { ChannelInput, ChannelName, ChannelOutput, EventEnvelope } from '../../../shared/contract';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { HomeChoice } from '../codex/home';
import type { Coordination } from '../service/coordination';
import type { StudioDb } from '../studio-db';
import type { IndexStatus } from '../../../shared/search';
import type { IndexedHome } from '../index-store/inspect';
import type { ServerLauncher } from '../agent-config/targets';

export interface HandlerContext {
  /** Inspects the home afresh (and keeps the watcher in step). */
  home(): Promise<HomeInfo>;
  /** The last inspection when still current, else a fresh one: for per-file requests. */
  knownHome(): Promise<HomeInfo>;
  /** The absolute path of an existing root, or a NotFound failure that says what to do. */
  rootPath(version: MemoryVersion): Promise<string>;
  switchHome(choice: HomeChoice): void;
  /** The home the host started with (a demo home may replace it until `home.leaveDemo`). */
  readonly startHome: HomeChoice;
  emit(event: EventEnvelope): void;
  readonly dataDir: string;
  readonly host: 'electron' | 'serve';
  /** Whether other callers share this host's main loop (see StudioServiceOptions.sharedLoop). */
  readonly sharedLoop: boolean;
  readonly appVersion: string;
  readonly readCapBytes: number;
  readonly createDemoHome?: (dir: string) => Promise<void>;
  /** The Studio DB (proposals, history), opened on first use in the data folder. */
  studioDb(): StudioDb;
  /** The home's index: refreshed on demand or after the watcher saw a change; null answers mean "read the files". */
  index: IndexAccess;
  /** What this service's consolidation runs, Apply and history share (held leases, settled proposals, our own writes). */
  readonly coordination: Coordination;
  /** How this host starts `memory-studio` (connecting an agent writes it into the agent's config); null: unknown. */
  readonly mcpLauncher: ServerLauncher | null;
  /** Whose paths the requests carry (the CLI's person, or a page) and the paths the person chose. */
  readonly callerPaths: CallerPaths;
}

export interface IndexAccess {
  /** The index after a refresh no older than `maxAgeMs` (none by default), or null when it is off or cancelled. */
  fresh(options?: { maxAgeMs?: number }): Promise<IndexedHome | null>;
  /** The last refreshed index of the current home, without refreshing (search while a build runs). */
  last(): IndexedHome | null;
  status(): IndexStatus;
  cancel(): void;
  resume(): void;
  /** Where the index file is, for work that opens its own connection on a worker; null when it is off. */
  path(): string | null;
}

/** What a request carries besides its input: `signal` aborts when its caller is gone or moved on (a superseded query). */
export interface RequestContext {
  signal?: AbortSignal;
}

/** One channel's handler; a handler whose work can stop (a pool task) passes `request.signal` on. */
export type Handler<C extends ChannelName> = (input: ChannelInput<C>, request?: RequestContext) => Promise<ChannelOutput<C>>;

/** The handlers of one area (`inspect`, `provenance`, ...): exactly its channels, each typed from the contract. */
export type AreaHandlers<A extends string> = { [C in ChannelName as C extends `${A}.${string}` ? C : never]: Handler<C> };
