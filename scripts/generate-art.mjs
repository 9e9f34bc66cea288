// Generates the demo's brand and goods art as SVG (no image from outside the project):
//   node scripts/generate-art.mjs
// Deterministic: the same code always yields the same file.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.join(process.cwd(), 'public');
const FONT = "system-ui, -apple-system, 'Segoe UI', sans-serif";

const CHANNELS = {
  default: { name: 'STOREFRONT', primary: '#1f2937', accent: '#9ca3af', page: '#f2f2f2' },
  aurora: { name: 'AURORA', primary: '#0f766e', accent: '#5eead4', page: '#eef6f5' },
  lumen: { name: 'LUMEN', primary: '#b45309', accent: '#fcd34d', page: '#fbf6ec' },
  gift: { name: 'GIFT', primary: '#be185d', accent: '#f9a8d4', page: '#fdf2f8' },
  chain: { name: 'CHAIN', primary: '#3730a3', accent: '#a5b4fc', page: '#eef2ff' },
  swap: { name: 'SWAP', primary: '#166534', accent: '#86efac', page: '#f0fdf4' },
  dark: { name: 'DARK', primary: '#0f172a', accent: '#94a3b8', page: '#e2e8f0' },
};

const GOODS = {
  'aurora-dawn': ['Aurora Dawn', 'waves'], 'tide-whale': ['Tide Whale', 'whale'], 'neon-koi': ['Neon Koi', 'koi'],
  'moon-rabbit': ['Moon Rabbit', 'moon'], 'jade-dragon': ['Jade Dragon', 'dragon'], 'star-fox': ['Star Fox', 'stars'],
  'aurora-mystery-box': ['Aurora Mystery Box', 'box'], 'lantern-festival': ['Lantern Festival', 'lanterns'],
  'paper-crane': ['Paper Crane', 'crane'], 'crystal-owl': ['Crystal Owl', 'crystal'], 'ember-phoenix': ['Ember Phoenix', 'flame'],
  'frost-lynx': ['Frost Lynx', 'snow'], 'lumen-sunrise': ['Sunrise', 'sun'], 'lumen-candle': ['Candle', 'candle'],
  'lumen-prism': ['Prism', 'prism'], 'dark-nebula': ['Nebula', 'nebula'],
};

function rng(seedText) {
  let h = 2166136261;
  for (const c of seedText) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return () => {
    h += 0x6d2b79f5;
    let t = h;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const svg = (w, h, body) => `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${body}</svg>\n`;
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const r1 = (n) => Math.round(n * 10) / 10;

function wave(y, amp, len, w, h, phase) {
  let d = `M0 ${h} L0 ${y}`;
  for (let x = 0; x <= w; x += 25) d += ` L${x} ${r1(y + Math.sin((x / len) * Math.PI * 2 + phase) * amp)}`;
  return `${d} L${w} ${h} Z`;
}

function write(rel, content) {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

// ---------- brand images ----------
const ICONS = {
  'mine-collection': '<rect x="28" y="28" width="17" height="17" rx="3"/><rect x="51" y="28" width="17" height="17" rx="3"/><rect x="28" y="51" width="17" height="17" rx="3"/><rect x="51" y="51" width="17" height="17" rx="3"/>',
  'mine-brand': '<path d="M48 24l7 15 16 2-12 11 3 16-14-8-14 8 3-16-12-11 16-2z"/>',
  'mine-records': '<path d="M32 24h32v48l-6-4-5 4-5-4-5 4-5-4-6 4z"/><path d="M39 36h18M39 45h18M39 54h11"/>',
  'mine-exchange': '<path d="M28 40h38l-9-9M68 56H30l9 9"/>',
  'mine-destory': '<path d="M48 24c4 10 16 16 16 30a16 16 0 0 1-32 0c0-8 5-12 8-16 1 6 4 8 6 8 0-8-2-14 2-22z"/>',
  'mine-receive': '<rect x="26" y="42" width="44" height="28" rx="3"/><rect x="23" y="33" width="50" height="10" rx="2"/><path d="M48 33v37M48 33c-4-9-15-9-13-2s13 2 13 2zm0 0c4-9 15-9 13-2s-13 2-13 2z"/>',
};

for (const [folder, c] of Object.entries(CHANNELS)) {
  const id = folder;
  const dir = `brands/${folder}`;
  write(`${dir}/banner.svg`, svg(750, 360, `<defs><linearGradient id="bg-${id}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${c.primary}"/><stop offset="1" stop-color="${c.primary}" stop-opacity="0.72"/></linearGradient></defs>
<rect width="750" height="360" fill="url(#bg-${id})"/>
<circle cx="610" cy="90" r="120" fill="${c.accent}" opacity="0.18"/><circle cx="660" cy="70" r="54" fill="${c.accent}" opacity="0.35"/>
<path d="${wave(250, 22, 420, 750, 360, 0.4)}" fill="${c.accent}" opacity="0.25"/>
<path d="${wave(280, 18, 300, 750, 360, 2.1)}" fill="${c.accent}" opacity="0.35"/>
<path d="${wave(312, 12, 520, 750, 360, 4)}" fill="#ffffff" opacity="0.18"/>
<text x="48" y="150" font-family="${FONT}" font-size="84" font-weight="800" letter-spacing="6" fill="#ffffff">${c.name}</text>
<text x="52" y="200" font-family="${FONT}" font-size="30" fill="#ffffff" opacity="0.85">Digital collectibles</text>`));
  write(`${dir}/brand.svg`, svg(240, 80, `<rect width="240" height="80" rx="16" fill="${c.page}"/><circle cx="40" cy="40" r="22" fill="${c.primary}"/><circle cx="40" cy="40" r="10" fill="${c.accent}"/>
<text x="74" y="50" font-family="${FONT}" font-size="${c.name.length > 7 ? 22 : 28}" font-weight="800" letter-spacing="2" fill="${c.primary}">${c.name}</text>`));
  write(`${dir}/user-face.svg`, svg(160, 160, `<circle cx="80" cy="80" r="80" fill="${c.accent}"/><circle cx="80" cy="64" r="26" fill="${c.primary}"/><path d="M32 136a48 44 0 0 1 96 0z" fill="${c.primary}"/>`));
  for (const [name, paths] of Object.entries(ICONS)) {
    write(`${dir}/${name}.svg`, svg(96, 96, `<rect width="96" height="96" rx="24" fill="${c.accent}" opacity="0.35"/><g fill="none" stroke="${c.primary}" stroke-width="5" stroke-linecap="round" stroke-linejoin="round">${paths}</g>`));
  }
  const links = Array.from({ length: 5 }, (_, i) => `<rect x="${90 + i * 115}" y="${i % 2 ? 176 : 150}" width="140" height="56" rx="28" fill="none" stroke="#ffffff" stroke-width="14" opacity="${0.5 + (i % 2) * 0.3}"/>`).join('');
  write(`${dir}/cover-chain.svg`, svg(750, 360, `<defs><linearGradient id="cc-${id}" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${c.primary}"/><stop offset="1" stop-color="${c.accent}"/></linearGradient></defs>
<rect width="750" height="360" fill="url(#cc-${id})"/>${links}
<g fill="#ffffff" opacity="0.2"><rect x="40" y="40" width="44" height="44" rx="8"/><rect x="96" y="40" width="44" height="44" rx="8"/><rect x="640" y="280" width="44" height="44" rx="8"/><rect x="584" y="280" width="44" height="44" rx="8"/></g>
<text x="48" y="320" font-family="${FONT}" font-size="34" font-weight="700" fill="#ffffff">Self chain-up</text>`));
  write(`${dir}/pay-success.svg`, svg(240, 240, `<circle cx="120" cy="120" r="110" fill="${c.accent}" opacity="0.35"/><circle cx="120" cy="120" r="84" fill="${c.primary}"/><path d="M82 122l26 26 50-54" fill="none" stroke="#ffffff" stroke-width="16" stroke-linecap="round" stroke-linejoin="round"/>`));
  write(`${dir}/pay-fail.svg`, svg(240, 240, `<circle cx="120" cy="120" r="110" fill="#fecaca"/><circle cx="120" cy="120" r="84" fill="#dc2626"/><path d="M90 90l60 60M150 90l-60 60" stroke="#ffffff" stroke-width="16" stroke-linecap="round"/>`));
  write(`${dir}/brand-result.svg`, svg(240, 240, `<path d="M86 150l-22 66 30-14 20 26 14-60zM154 150l22 66-30-14-20 26-14-60z" fill="${c.accent}"/><circle cx="120" cy="100" r="78" fill="${c.primary}"/><circle cx="120" cy="100" r="60" fill="none" stroke="${c.accent}" stroke-width="6"/><path d="M120 62l11 23 25 3-18 17 5 25-23-12-23 12 5-25-18-17 25-3z" fill="#ffffff"/>`));
}

// ---------- goods art ----------
function motif(kind, rand, fg, accent) {
  const cx = 300, cy = 270;
  switch (kind) {
    case 'waves': case 'snow': return [0, 1, 2, 3].map((i) => `<path d="${wave(210 + i * 60, 26 - i * 3, 260 + i * 60, 600, 600, rand() * 6)}" fill="${i % 2 ? accent : fg}" opacity="${0.25 + i * 0.15}"/>`).join('');
    case 'whale': return `<path d="M120 300c40-90 230-110 330-40 30 20 50 10 70-20-5 50-30 80-70 85-60 60-230 70-330-25z" fill="${fg}"/><circle cx="210" cy="285" r="9" fill="${accent}"/><path d="M300 190c0-40 10-60 30-70M300 190c-10-30-30-40-50-40" stroke="${accent}" stroke-width="8" fill="none" stroke-linecap="round"/>`;
    case 'koi': return [0, 1].map((i) => `<g transform="rotate(${i * 180} ${cx} ${cy})"><path d="M300 150c70 10 110 70 90 130-10-30-40-40-60-30 10 40-10 70-30 80 0-40-20-70-60-90 10-50 30-80 60-90z" fill="${i ? accent : fg}"/></g>`).join('');
    case 'moon': return `<circle cx="${cx}" cy="${cy}" r="150" fill="${accent}"/><circle cx="${cx + 60}" cy="${cy - 40}" r="130" fill="${fg}" opacity="0.25"/><path d="M250 330c-10-40 0-80 20-90 0-30 10-50 20-50 5 20 0 40-5 55 30 10 45 50 35 85z" fill="${fg}"/>`;
    case 'dragon': return `<path d="M90 380c60-120 140-40 200-120s150-80 210-20c-60-10-90 30-120 80s-120 120-290 60z" fill="${fg}"/><circle cx="440" cy="250" r="10" fill="${accent}"/><path d="M470 235l40-30M470 250l45-5" stroke="${accent}" stroke-width="6" stroke-linecap="round"/>`;
    case 'stars': case 'nebula': return Array.from({ length: 34 }, () => `<circle cx="${r1(40 + rand() * 520)}" cy="${r1(40 + rand() * 420)}" r="${r1(2 + rand() * 7)}" fill="${rand() > 0.5 ? accent : '#ffffff'}" opacity="${r1(0.5 + rand() * 0.5)}"/>`).join('') + (kind === 'nebula' ? `<ellipse cx="${cx}" cy="${cy}" rx="200" ry="90" fill="${accent}" opacity="0.3" transform="rotate(-20 ${cx} ${cy})"/>` : `<path d="M220 330l50-120 40 70 60-40 10 110z" fill="${fg}" opacity="0.85"/>`);
    case 'box': return `<rect x="160" y="220" width="280" height="200" rx="14" fill="${fg}"/><rect x="140" y="170" width="320" height="70" rx="12" fill="${accent}"/><rect x="282" y="170" width="36" height="250" fill="#ffffff" opacity="0.8"/><text x="300" y="365" text-anchor="middle" font-family="${FONT}" font-size="120" font-weight="800" fill="#ffffff">?</text>`;
    case 'lanterns': return Array.from({ length: 6 }, (_, i) => { const x = 90 + i * 85, y = 120 + (i % 3) * 70; return `<line x1="${x}" y1="0" x2="${x}" y2="${y}" stroke="${fg}" stroke-width="3"/><ellipse cx="${x}" cy="${y + 40}" rx="32" ry="42" fill="${i % 2 ? accent : fg}"/>`; }).join('');
    case 'crane': return `<path d="M300 160l140 160-140-40-140 40z" fill="${fg}"/><path d="M300 280l-40 120 40-30 40 30z" fill="${accent}"/><path d="M440 320l60-90-30 100z" fill="${fg}" opacity="0.7"/>`;
    case 'crystal': case 'prism': return `<path d="M300 110l120 140-120 220-120-220z" fill="${fg}" opacity="0.85"/><path d="M300 110l40 140-40 220-40-220z" fill="${accent}" opacity="0.7"/>${kind === 'prism' ? `<path d="M60 300L250 280M350 270l190-60M350 285l190 0M350 300l190 60" stroke="${accent}" stroke-width="8"/>` : ''}`;
    case 'flame': case 'candle': return `${kind === 'candle' ? `<rect x="260" y="300" width="80" height="180" rx="10" fill="${fg}"/>` : ''}<path d="M300 ${kind === 'candle' ? 150 : 110}c40 60 90 100 90 170a90 90 0 0 1-180 0c0-50 30-80 50-110 6 40 24 50 36 50 0-50-10-80 4-110z" fill="${accent}"/><path d="M300 ${kind === 'candle' ? 230 : 220}c20 30 40 50 40 80a40 40 0 0 1-80 0c0-30 20-50 40-80z" fill="#ffffff" opacity="0.7"/>`;
    case 'sun': return `<circle cx="${cx}" cy="${cy + 60}" r="120" fill="${accent}"/>${Array.from({ length: 12 }, (_, i) => `<rect x="296" y="${cy - 150}" width="8" height="60" rx="4" fill="${accent}" transform="rotate(${i * 30 - 90} ${cx} ${cy + 60})"/>`).join('')}<path d="${wave(380, 10, 300, 600, 600, 1)}" fill="${fg}"/>`;
    default: return '';
  }
}

for (const [code, [name, kind]] of Object.entries(GOODS)) {
  for (const variant of [1, 2]) {
    const rand = rng(`${code}#${variant}`);
    const hue = Math.floor(rand() * 360);
    const hue2 = (hue + 40 + Math.floor(rand() * 80)) % 360;
    const bg1 = `hsl(${hue} 55% ${variant === 1 ? 22 : 88}%)`;
    const bg2 = `hsl(${hue2} 60% ${variant === 1 ? 38 : 72}%)`;
    const fg = `hsl(${hue2} 70% ${variant === 1 ? 62 : 30}%)`;
    const accent = `hsl(${(hue + 180) % 360} 85% ${variant === 1 ? 70 : 45}%)`;
    const gid = `g-${code}-${variant}`;
    const body = `<defs><linearGradient id="${gid}" x1="0" y1="0" x2="${r1(rand())}" y2="1"><stop offset="0" stop-color="${bg1}"/><stop offset="1" stop-color="${bg2}"/></linearGradient></defs>
<rect width="600" height="600" fill="url(#${gid})"/>
<circle cx="${r1(80 + rand() * 440)}" cy="${r1(60 + rand() * 200)}" r="${r1(60 + rand() * 90)}" fill="#ffffff" opacity="0.08"/>
${motif(kind, rand, fg, accent)}
<rect y="520" width="600" height="80" fill="#000000" opacity="0.28"/>
<text x="30" y="570" font-family="${FONT}" font-size="30" font-weight="700" fill="#ffffff">${esc(name)}</text>`;
    write(`goods/${code}${variant === 1 ? '' : '-2'}.svg`, svg(600, 600, body));
  }
}
console.log('art written under public/brands and public/goods');
