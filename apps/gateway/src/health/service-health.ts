import { healthSubject } from '@cairn/contracts';
import type { RpcClient } from '@cairn/platform';

/** The services the gateway needs before it can serve the API (`/readyz`). */
export const REQUIRED_SERVICES = ['identity', 'repo', 'hooks', 'runners'] as const;

export async function checkServices(rpc: RpcClient, services: readonly string[] = REQUIRED_SERVICES) {
  const entries = await Promise.all(
    services.map(async (s) => {
      try {
        const reply = await rpc.send(healthSubject(s), {}, { timeoutMs: 2_000 });
        return [s, reply.ok] as const;
      } catch {
        return [s, false] as const;
      }
    }),
  );
  return Object.fromEntries(entries) as Record<string, boolean>;
}
