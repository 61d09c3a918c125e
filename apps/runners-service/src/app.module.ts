import { Module } from '@nestjs/common';
import { PlatformModule } from '@cairn/platform';

/** runners-service: self-hosted runners, registration tokens and Actions variables (features arrive per issue). */
@Module({
  imports: [PlatformModule.forService({ service: 'runners' })],
})
export class AppModule {}
