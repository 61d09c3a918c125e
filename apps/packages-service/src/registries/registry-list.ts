import type { PackageRegistry } from './registry.js';
import { containerRegistry } from './container/container.registry.js';
import { genericRegistry } from './generic/generic.registry.js';
import { npmRegistry } from './npm/npm.registry.js';

export const REGISTRIES: readonly PackageRegistry[] = [
  genericRegistry,
  containerRegistry,
  npmRegistry,
];
