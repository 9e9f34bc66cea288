/**
 * The avatars shipped with the project (issue 36, docs/profile.md): a buyer picks one of these on their profile page.
 * Files under public/brands/avatars/ (a shape the proxy serves as a static file). Pure; client and server.
 */
export const PRESET_AVATARS = ['sun', 'leaf', 'wave', 'star', 'cat', 'mountain'].map((name) => `/brands/avatars/${name}.svg`);

export function isPresetAvatar(path: string): boolean {
  return PRESET_AVATARS.includes(path);
}
