// Types for install-codex.mjs, which runs as a plain Node script before the suite and is imported by its helpers and scripts.
export declare const DEFAULT_CODEX_VERSION: string;
export declare function isCodexVersion(text: unknown): text is string;
export declare function compareCodexVersions(a: string, b: string): number;
export declare function codexDirOf(version: string): string;
export declare function listedCodexVersions(): string[];
export declare const CODEX_INSTALLS: ReadonlyArray<{ version: string; dir: string }>;
export declare function selectedCodexVersion(env?: NodeJS.ProcessEnv): string;
export declare const CODEX_VERSION: string;
export declare const SELECTION_ERROR: string | null;
export declare const codexCliDir: string;
export declare function codexBinaryPath(version?: string): string | null;
export declare function codexLauncherPathOf(version?: string): string;
export declare const codexLauncherPath: string;
export declare function installHint(version?: string): string;
export declare const INSTALL_HINT: string;
export declare function installedVersion(version?: string): string | null;
export declare function addCodexVersion(version: string): string;
export declare function installCodex(version: string): boolean;
