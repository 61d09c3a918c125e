/** @cairn/git: the one home of git in Cairn — starting git, reading and parsing its objects, refs, merges and commits. */
export * from './git-environment.js';
export * from './git-process.js';
export * from './repo-storage-path.js';
export * from './cat-file-pool.js';
export * from './commit-object.js';
export * from './tree-object.js';
export * from './tag-object.js';
export * from './tree-path.js';
export * from './tree-reader.js';
export * from './refs.js';
export * from './log-format.js';
export * from './commit-signing.js';
export * from './plumbing.js';
export * from './merge-tree.js';
export * from './merge-tree-session.js';
export * from './merge-base-walk.js';
