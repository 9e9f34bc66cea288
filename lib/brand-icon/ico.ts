/**
 * An ICO file holding PNG images (the form every browser since 2007 reads): a 6-byte header, a 16-byte directory entry
 * per image, then the PNGs as they are. Sizes are 1 to 256 pixels; 256 is written as 0, as the format says.
 */
export function icoFromPngs(images: { size: number; png: Buffer }[]): Buffer {
  if (images.length === 0 || images.length > 0xffff) throw new RangeError('an ICO holds 1 to 65535 images');
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // 1 = icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, i) => {
    if (!Number.isInteger(size) || size < 1 || size > 256) throw new RangeError(`icon size ${size} is not 1 to 256`);
    const entry = 6 + 16 * i;
    header.writeUInt8(size % 256, entry); // width
    header.writeUInt8(size % 256, entry + 1); // height
    header.writeUInt8(0, entry + 2); // no palette
    header.writeUInt8(0, entry + 3); // reserved
    header.writeUInt16LE(1, entry + 4); // colour planes
    header.writeUInt16LE(32, entry + 6); // bits per pixel
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.png)]);
}

/** The images of an ICO file: size and bytes of each (for tests and checks). */
export function readIco(bytes: Buffer): { size: number; data: Buffer }[] {
  if (bytes.length < 6 || bytes.readUInt16LE(0) !== 0 || bytes.readUInt16LE(2) !== 1) throw new Error('not an ICO file');
  return Array.from({ length: bytes.readUInt16LE(4) }, (_, i) => {
    const entry = 6 + 16 * i;
    const length = bytes.readUInt32LE(entry + 8);
    const offset = bytes.readUInt32LE(entry + 12);
    return { size: bytes.readUInt8(entry) || 256, data: bytes.subarray(offset, offset + length) };
  });
}
