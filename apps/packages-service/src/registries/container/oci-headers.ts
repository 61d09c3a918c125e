/** Sent with every `/v2` answer (the distribution spec's legacy Docker header; clients check it on `/v2/`). */
export const API_VERSION_HEADER = { 'docker-distribution-api-version': 'registry/2.0' } as const;
