import { Module } from '@nestjs/common';
import { CollaboratorsModule } from './collaborators/collaborators.module.js';
import { DeployKeysModule } from './deploy-keys/deploy-keys.module.js';
import { FollowsModule } from './follows/follows.module.js';
import { GitReadModule } from './git/git-read.module.js';
import { RefNamesModule } from './ref-names/ref-names.module.js';
import { RepositoriesModule } from './repositories/repositories.module.js';
import { SignaturesModule } from './signatures/signatures.module.js';
import { SigningModule } from './signing/signing.module.js';
import { StorageModule } from './storage/storage.module.js';
import { TemplatesModule } from './templates/templates.module.js';
import { TopicsModule } from './topics/topics.module.js';
import { TransportModule } from './transport/transport.module.js';

/** The git-core layer: a repository's record and its git, with repository administration. */
@Module({
  imports: [
    StorageModule,
    SigningModule,
    SignaturesModule,
    TemplatesModule,
    RepositoriesModule,
    CollaboratorsModule,
    DeployKeysModule,
    FollowsModule,
    TopicsModule,
    GitReadModule,
    RefNamesModule,
    TransportModule,
  ],
})
export class GitCoreModule {}
