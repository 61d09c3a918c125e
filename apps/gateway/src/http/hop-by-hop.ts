/** Response headers a proxy never passes on (hop-by-hop, or the upstream's own connection handling). */
export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set([
  'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer',
]);
