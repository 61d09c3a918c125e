import { Module } from '@nestjs/common';
import { PlatformModule } from '@cairn/platform';
import { CodeModule } from './code/code.module.js';
import { GitCoreModule } from './git-core/git-core.module.js';
import { LayerPortsModule } from './layer-ports.module.js';
import { AccessModule } from './foundation/access/access.module.js';
import { RepoConfigModule } from './foundation/config/repo-settings.js';
import { PrismaModule } from './foundation/prisma/prisma.module.js';
import { TrackerModule } from './tracker/tracker.module.js';

// In layers bottom to top (layers.json): foundation, git-core, code, tracker; LayerPortsModule binds their ports.
@Module({
  imports: [
    PlatformModule.forService({ service: 'repo', schema: 'repo' }),
    RepoConfigModule,
    PrismaModule,
    AccessModule,
    GitCoreModule,
    CodeModule,
    TrackerModule,
    LayerPortsModule,
  ],
})
export class AppModule {}
