/** @cairn/git: the one home of git in Cairn — starting git, reading and parsing its objects, refs and merges. */
export * from './git-environment.js';
export * from './git-process.js';
export * from './repo-storage-path.js';
