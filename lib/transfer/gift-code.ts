import 'server-only';
import QRCode from 'qrcode';

/**
 * The receiver's gift code (issue 36; docs/gifting.md, "Certificate"): a QR code on their Mine page of a link that,
 * scanned by a friend's phone camera or WeChat, opens the friend's editions they can give now, to pick one and land on
 * the give page with this receiver's account number filled in. The lookup and the masked-name confirmation still
 * happen: the code only saves typing. A visitor who scans it logs in first and comes back (the route needs login).
 */

/** The path a gift code opens (on the channel's public host). */
export function giftCodePath(accountNumber: string): string {
  return `/mine/collection/give-to/${accountNumber}`;
}

/**
 * A QR code drawn on the server as one SVG path, in module units with a 4-module quiet zone (what readers expect):
 * `d` for a `<path>` in a `size`×`size` view box. Error correction M, which a phone reads off a screen at once.
 */
export function qrPath(text: string): { size: number; d: string } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const quiet = 4;
  const parts: string[] = [];
  for (let row = 0; row < modules.size; row++) {
    let col = 0;
    while (col < modules.size) {
      if (!modules.get(row, col)) {
        col += 1;
        continue;
      }
      // One horizontal run of dark modules: one rectangle.
      const start = col;
      while (col < modules.size && modules.get(row, col)) col += 1;
      parts.push(`M${start + quiet} ${row + quiet}h${col - start}v1h-${col - start}z`);
    }
  }
  return { size: modules.size + quiet * 2, d: parts.join('') };
}
