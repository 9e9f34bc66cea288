// jsdom has no window.matchMedia; sonner (the toasts) asks it for the reduced-motion and colour-scheme preferences.
// The least it needs: no query ever matches.
if (typeof window !== 'undefined') {
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    onchange: null,
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
}
