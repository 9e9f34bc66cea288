// Jest runs outside React Server Components; `server-only` guards nothing there.
export {};
