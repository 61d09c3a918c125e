import QRCode from 'qrcode';

/**
 * An `otpauth://` URI as an inline SVG QR code, rendered on the server (no script, no image request, nothing sent
 * elsewhere). Inline SVG is markup, so the page's CSP (no inline styles) holds: the code uses presentation attributes.
 */
export async function qrCodeSvg(text: string, label: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, width: 220 });
  return svg.replace('<svg ', `<svg role="img" aria-label="${escapeAttribute(label)}" `);
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
