export const BLOB_STORE = Symbol('BLOB_STORE');
