// Types for install-codex.mjs, which runs as a plain Node script before the suite and is imported by its helpers.
export declare const CODEX_VERSION: string;
export declare const codexCliDir: string;
export declare const codexLauncherPath: string;
export declare const INSTALL_HINT: string;
export declare function codexBinaryPath(): string | null;
export declare function installedVersion(): string | null;
