// Reads the serve host's access token from the page URL once, keeps it for reloads, and hides it from the address bar.

const STORAGE_KEY = 'memory-studio.access-token';

let cached: string | null | undefined;

/**
 * Returns the token for `memory-studio serve`, or null when there is none.
 * sessionStorage (not localStorage) so the token dies with the tab, like the server's own lifetime;
 * it leaves the visible URL so it does not end up in screenshots, bookmarks or shared links.
 */
export function getAccessToken(): string | null {
  if (cached !== undefined) return cached;
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    writeStorage(fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
    cached = fromUrl;
  } else {
    cached = readStorage();
  }
  return cached;
}

function readStorage(): string | null {
  try {
    return window.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage can be disabled by the browser; the token then lives only as long as this page.
    return null;
  }
}

function writeStorage(token: string): void {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, token);
  } catch {
    // See readStorage: a reload will then need the printed URL again, which the 401 message says.
  }
}
