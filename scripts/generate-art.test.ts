import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ART_FOLDERS, writeArt } from './art';

// The demo's art is drawn by code (scripts/art/, `npm run art`) and committed under public/ (docs/decisions.md, "Demo
// art"). Redrawing it must give the committed files byte for byte: a change to a shape helper or a drawing that moves
// one pixel of one picture fails here, file by file, until the pictures are redrawn (`npm run art`) and looked at.

const PUBLIC = path.join(process.cwd(), 'public');

/** Every file under the art folders of `root`, as paths relative to it. */
function artFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const rel = path.join(dir, entry.name);
      return entry.isDirectory() ? walk(rel) : [rel.split(path.sep).join('/')];
    });
  return ART_FOLDERS.flatMap((folder) => (fs.existsSync(path.join(root, folder)) ? walk(folder) : [])).sort();
}

/** The files that differ between two art trees: missing from one, or not the same bytes. */
function differences(committed: string, drawn: string): string[] {
  const before = artFiles(committed),
    after = artFiles(drawn);
  return [
    ...before.filter((file) => !after.includes(file)).map((file) => `${file}: committed, no longer drawn`),
    ...after.filter((file) => !before.includes(file)).map((file) => `${file}: drawn, not committed`),
    ...after
      .filter((file) => before.includes(file))
      .filter((file) => !fs.readFileSync(path.join(committed, file)).equals(fs.readFileSync(path.join(drawn, file))))
      .map((file) => `${file}: drawn differently from the committed file`),
  ];
}

describe('the demo art', () => {
  // Drawn in this process, into a folder of its own: a second or so, no child process.
  let drawn: string;
  let files: Map<string, string>;
  beforeAll(() => {
    drawn = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-art-'));
    files = writeArt(drawn);
  });
  afterAll(() => fs.rmSync(drawn, { recursive: true, force: true }));

  it('draws again exactly the files committed under public/goods and public/brands', () => {
    expect(files.size).toBeGreaterThan(100);
    expect(artFiles(drawn)).toHaveLength(files.size);
    expect(differences(PUBLIC, drawn)).toEqual([]);
  });

  it('tells a picture drawn one byte differently, one gone and one new (the check above can fail)', () => {
    const committed = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-art-committed-'));
    try {
      fs.cpSync(drawn, committed, { recursive: true });
      const cover = path.join(committed, 'goods', 'star-fox.svg');
      fs.writeFileSync(cover, fs.readFileSync(cover, 'utf8').replace('#fff', '#ffe'));
      fs.rmSync(path.join(committed, 'brands', 'aurora', 'banner.svg'));
      fs.writeFileSync(path.join(committed, 'goods', 'gone.svg'), '<svg/>');
      expect(differences(committed, drawn)).toEqual([
        'goods/gone.svg: committed, no longer drawn',
        'brands/aurora/banner.svg: drawn, not committed',
        'goods/star-fox.svg: drawn differently from the committed file',
      ]);
    } finally {
      fs.rmSync(committed, { recursive: true, force: true });
    }
  });
});
