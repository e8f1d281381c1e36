// Types for install-codex.mjs, which runs as a plain Node script before the suite and is imported by its helpers.
export declare const CODEX_INSTALLS: ReadonlyArray<{ version: string; dir: string }>;
export declare const CODEX_VERSION: string;
export declare const MCP_CODEX_VERSION: string;
export declare const codexCliDir: string;
export declare const codexLauncherPath: string;
export declare const INSTALL_HINT: string;
export declare function codexDirOf(version?: string): string;
export declare function codexBinaryPath(version?: string): string | null;
export declare function installedVersion(version?: string): string | null;
