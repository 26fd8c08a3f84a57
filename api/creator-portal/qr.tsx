// The referral link's QR code, drawn on the server as SVG from the matrix of uqr (a zero-dependency encoder of the
// unjs project: docs/creator-portal.md says why). The SVG is a preact element, so it is escaped by construction and
// needs no raw insertion; the same element is the downloadable file.
import { renderToString } from 'preact-render-to-string';
import { encode } from 'uqr';

/** One path of 1x1 squares for the dark modules, inside the standard four-module quiet zone (uqr's border). */
export function modulesPath(text: string): { size: number; d: string } {
  const qr = encode(text, { ecc: 'M', border: 4 });
  const parts: string[] = [];
  qr.data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) parts.push(`M${x} ${y}h1v1h-1z`);
    }),
  );
  return { size: qr.size, d: parts.join('') };
}

export function QrCode({ text, label }: { text: string; label: string }) {
  const { size, d } = modulesPath(text);
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox={`0 0 ${size} ${size}`}
      class="qr"
      role="img"
      aria-label={label}
      shape-rendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}

/** The standalone file. */
export function qrSvgFile(text: string, label: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${renderToString(<QrCode text={text} label={label} />)}`;
}
