/**
 * Builds the share poster's font (docs/sharing.md): Noto Sans SC Regular, cut down to what a poster writes, so the
 * poster never depends on the fonts of the machine that renders it.
 *
 *   npx tsx scripts/subset-poster-font.ts [path/to/NotoSansCJK-Regular.ttc]
 *
 * Source: Debian's fonts-noto-cjk (`apt-get install fonts-noto-cjk`), whose collection holds the Simplified Chinese
 * face as its third font. Kept: printable ASCII, the common punctuation and currency signs, the 3,755 characters of
 * GB 2312's first level (the common characters, decoded from their GBK codes, so no list has to be kept by hand), and
 * every character of the Chinese messages and of the demo's data. Written to assets/fonts/NotoSansSC-Poster.otf
 * (an OpenType font with CFF outlines, which the poster's renderer reads); the licence (SIL OFL 1.1) is beside it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import subsetFont from 'subset-font';

const SOURCE = process.argv[2] ?? '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
/** The collection's faces: JP, KR, SC, TC, HK. */
const SC_FACE = 2;
const root = path.resolve(__dirname, '..');
const OUT = path.join(root, 'assets/fonts/NotoSansSC-Poster.otf');

/** One face of a TrueType/OpenType collection as a font file of its own (its tables copied, offsets rewritten). */
export function faceOfCollection(ttc: Buffer, index: number): Buffer {
  if (ttc.toString('latin1', 0, 4) !== 'ttcf') return ttc;
  const faceOffset = ttc.readUInt32BE(12 + 4 * index);
  const numTables = ttc.readUInt16BE(faceOffset + 4);
  const headerSize = 12 + 16 * numTables;
  const tables = Array.from({ length: numTables }, (_, i) => {
    const at = faceOffset + 12 + 16 * i;
    return {
      tag: ttc.subarray(at, at + 4),
      checksum: ttc.readUInt32BE(at + 4),
      offset: ttc.readUInt32BE(at + 8),
      length: ttc.readUInt32BE(at + 12),
    };
  });
  const padded = (n: number) => (n + 3) & ~3;
  const total = headerSize + tables.reduce((sum, t) => sum + padded(t.length), 0);
  const out = Buffer.alloc(total);
  ttc.copy(out, 0, faceOffset, faceOffset + 12);
  let cursor = headerSize;
  tables.forEach((t, i) => {
    const at = 12 + 16 * i;
    t.tag.copy(out, at);
    out.writeUInt32BE(t.checksum, at + 4);
    out.writeUInt32BE(cursor, at + 8);
    out.writeUInt32BE(t.length, at + 12);
    ttc.copy(out, cursor, t.offset, t.offset + t.length);
    cursor += padded(t.length);
  });
  return out;
}

/** GB 2312 level 1: rows 16–55 (lead bytes 0xB0–0xD7), 94 cells each, the last row ending at 0xD7F9. */
function gb2312LevelOne(): string {
  const gbk = new TextDecoder('gbk');
  let text = '';
  for (let lead = 0xb0; lead <= 0xd7; lead++) {
    for (let trail = 0xa1; trail <= 0xfe; trail++) {
      if (lead === 0xd7 && trail > 0xf9) break;
      text += gbk.decode(Buffer.from([lead, trail]));
    }
  }
  return text;
}

function charactersOf(file: string): string {
  return readFileSync(path.join(root, file), 'utf8').replace(/[\u0000-\u007f]/g, '');
}

async function main() {
  let ascii = '';
  for (let c = 0x20; c < 0x7f; c++) ascii += String.fromCharCode(c);
  const punctuation = '¥￥·，。、：；！？（）《》〈〉「」『』【】“”‘’—…～×%‰°';
  const wanted = new Set(
    [ascii, punctuation, gb2312LevelOne(), charactersOf('lib/i18n/messages/zh-CN.ts'), charactersOf('lib/demo/seed-data.ts')].join(''),
  );
  const source = faceOfCollection(readFileSync(SOURCE), SC_FACE);
  const font = await subsetFont(source, [...wanted].join(''), { targetFormat: 'sfnt' });
  writeFileSync(OUT, font);
  console.log(`${path.relative(root, OUT)}: ${wanted.size} characters, ${(font.length / 1024).toFixed(0)} kB`);
}

void main();
