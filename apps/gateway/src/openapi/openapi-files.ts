import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GiteaFacts } from './openapi-document.js';

/** `apps/gateway/openapi/`: the committed API description and the Gitea facts it is built from. */
const OPENAPI_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../openapi');

export const COMMITTED_DOCUMENT = resolve(OPENAPI_DIR, 'swagger.v1.json');
/** Facts from Gitea's description (scripts/extract-gitea-facts.mjs writes it). */
export const GITEA_FACTS = resolve(OPENAPI_DIR, 'gitea-facts.json');

export function readGiteaFacts(): GiteaFacts {
  return JSON.parse(readFileSync(GITEA_FACTS, 'utf8')) as GiteaFacts;
}

export function readCommittedDocument(): OpenApiDocument {
  return JSON.parse(readFileSync(COMMITTED_DOCUMENT, 'utf8')) as OpenApiDocument;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, { operationId: string; parameters?: { name: string; in: string; [k: string]: unknown }[]; responses: Record<string, unknown>; [k: string]: unknown }>>;
  [k: string]: unknown;
}
