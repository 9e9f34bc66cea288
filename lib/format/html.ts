/**
 * Text made safe for HTML written by hand (outside React): in element content and in a double- or single-quoted
 * attribute value, each of & < > " ' as its numeric character reference.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
