import { qrPath } from '@/lib/transfer/gift-code';

/** A QR code of `text`, drawn on the server as an SVG (no script): dark modules on white, crisp at any size. */
export function QrCode({ text, label, className = '' }: { text: string; label: string; className?: string }) {
  const { size, d } = qrPath(text);
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
      className={className}
      data-testid="qr-code"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
