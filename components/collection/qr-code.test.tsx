import { renderToStaticMarkup } from 'react-dom/server';
import sharp from 'sharp';
import jsQR from 'jsqr';
import { giftCodePath } from '@/lib/transfer/gift-code';
import { QrCode } from './qr-code';

// The receiver's gift code (issue 36): the QR code Mine's gift-code page draws on the server, read back as a phone's
// camera would, is the link to giving to that account number on the channel's host.

async function decode(svg: string, width: number): Promise<string | null> {
  const { data, info } = await sharp(Buffer.from(svg)).resize(width, width).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data ?? null;
}

describe('the gift code QR', () => {
  it('decodes to the link that opens giving to the account number', async () => {
    const link = `https://aurora.example.com${giftCodePath('3051234567')}`;
    const svg = renderToStaticMarkup(<QrCode text={link} label="QR" />);
    expect(svg).toMatch(/^<svg[^>]*viewBox="0 0 \d+ \d+"/);
    expect(await decode(svg, 400)).toBe('https://aurora.example.com/mine/collection/give-to/3051234567');
    // A phone reads it small too.
    expect(await decode(svg, 160)).toBe(link);
  });

  it('draws a different code for another account number', async () => {
    const svg = renderToStaticMarkup(<QrCode text={`http://aurora.localhost:3000${giftCodePath('9999999999')}`} label="QR" />);
    expect(await decode(svg, 300)).toBe('http://aurora.localhost:3000/mine/collection/give-to/9999999999');
  });
});
