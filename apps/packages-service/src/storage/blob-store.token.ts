/** Injection token of the packages' blob store (`[storage.packages]`, @cairn/platform's `openBlobStore`). */
export const BLOB_STORE = Symbol('BLOB_STORE');
