// Ambient types for the renderer: Vite's client helpers (`?worker` imports) and the preload bridge on `window`.
/// <reference types="vite/client" />
import type { StudioApi } from '../../shared/contract';

declare global {
  interface Window {
    /** Exposed by the Electron preload through contextBridge; absent when the page is served over HTTP. */
    readonly studio?: StudioApi;
  }
}
