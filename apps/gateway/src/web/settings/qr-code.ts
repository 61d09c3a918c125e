import QRCode from 'qrcode';

/** Rendered on the server (no script, no request elsewhere); presentation attributes keep the CSP's no-inline-style. */
export async function qrCodeSvg(text: string, label: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, width: 220 });
  return svg.replace('<svg ', `<svg role="img" aria-label="${escapeAttribute(label)}" `);
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
